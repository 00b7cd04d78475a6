import type { EventName, EventParams } from "./analytics-events";
import { queueForEndpoint } from "./beacon";

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** gtag's own shape: it pushes its `arguments` object, and GA4 reads the data layer the same way. */
function gtag(..._args: unknown[]) {
  window.dataLayer = window.dataLayer ?? [];
  // eslint-disable-next-line prefer-rest-params -- GA4 expects the Arguments object, not an array
  window.dataLayer.push(arguments);
}

/** One function for every event (PRODUCT §8): the data layer always, the first-party endpoint batched. */
export function track<Name extends EventName>(
  name: Name,
  // Events without parameters (their schema has only an index signature) take none.
  ...params: string extends keyof EventParams[Name] ? [] : [EventParams[Name]]
) {
  const values: object = params[0] ?? {};
  gtag("event", name, values);
  queueForEndpoint(name, values);
}
