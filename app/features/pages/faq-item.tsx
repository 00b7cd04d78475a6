import type { FaqQuestion } from "~content/types";

/** One question as a native disclosure: keyboard-accessible (Enter/Space) and open without JavaScript. */
export function FaqItem({ item }: { item: FaqQuestion }) {
  return (
    <details className="faq-item" id={item.id}>
      <summary>{item.question}</summary>
      <div className="faq-item__answer">
        {item.answer.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
    </details>
  );
}
