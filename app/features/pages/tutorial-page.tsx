import { ClosingCall } from "./closing-call";
import { Illustration } from "./illustration";
import { PageIntro } from "./page-intro";
import type { TutorialContent } from "~content/types";

export function TutorialPage({ intro, steps, closing }: TutorialContent) {
  return (
    <main className="page page--narrow">
      <PageIntro title={intro.title} lead={intro.lead} />
      <ol className="tutorial-steps">
        {steps.map((step, index) => (
          <li key={step.title} className="card tutorial-step">
            <Illustration className="tutorial-step__image" image={step.image} eager={index === 0} />
            <div>
              <h2>
                <span className="tutorial-step__number">步驟 {index + 1}</span>
                {step.title}
              </h2>
              <p>{step.text}</p>
              <ul className="check-list">
                {step.tips.map((tip) => (
                  <li key={tip}>{tip}</li>
                ))}
              </ul>
            </div>
          </li>
        ))}
      </ol>
      <ClosingCall call={closing} />
    </main>
  );
}
