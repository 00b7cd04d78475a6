import { usePublicEnv } from "~/config/use-public-env";
import type { CallToAction } from "~content/types";

/** A closing section that invites questions by email, to the configured support address. */
export function ContactCall({ call }: { call: CallToAction }) {
  const env = usePublicEnv();
  return (
    <section className="page-section" aria-labelledby="contact-call">
      <h2 id="contact-call">{call.title}</h2>
      <p>{call.text}</p>
      <p>
        <a href={`mailto:${env.supportEmail}`}>{env.supportEmail}</a>
      </p>
    </section>
  );
}
