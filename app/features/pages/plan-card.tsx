import type { Plan } from "~content/types";

/** One plan: its name, whether it is available or coming, and what it includes. */
export function PlanCard({ plan, headingLevel = 2 }: { plan: Plan; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className={`card plan-card plan-card--${plan.status}`} aria-label={plan.name}>
      <Heading>{plan.name}</Heading>
      <p className="plan-card__status">{plan.status === "available" ? "免費使用中" : "即將推出"}</p>
      <p>{plan.summary}</p>
      {plan.includes.length > 0 && (
        <ul className="check-list">
          {plan.includes.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
