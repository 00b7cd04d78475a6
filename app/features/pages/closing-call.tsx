import { StartLinks } from "./start-links";
import type { CallToAction } from "~content/types";

/** The call to action that closes a screen: a short heading, a sentence, start and sign-up links. */
export function ClosingCall({ call }: { call: CallToAction }) {
  return (
    <section className="closing-call" aria-labelledby="closing-call">
      <h2 id="closing-call">{call.title}</h2>
      <p>{call.text}</p>
      <StartLinks />
    </section>
  );
}
