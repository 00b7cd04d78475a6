import { z } from "zod";
import { eventParamSchemas, type EventName } from "./analytics-events";
import { MAX_BATCH } from "./beacon";

const eventSchemas = (Object.keys(eventParamSchemas) as EventName[]).map((name) =>
  z.object({ name: z.literal(name), params: eventParamSchemas[name] }).strict(),
);

// zod wants a non-empty tuple; the list above has one entry per event name.
const eventSchema = z.discriminatedUnion("name", eventSchemas as [(typeof eventSchemas)[number]]);

/** What the endpoint accepts: 1–20 events of the original §7, each with exactly its own parameters. */
export const analyticsBatchSchema = z.object({ events: z.array(eventSchema).min(1).max(MAX_BATCH) }).strict();

export type AnalyticsBatch = z.infer<typeof analyticsBatchSchema>;
