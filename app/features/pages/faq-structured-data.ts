import type { FaqGroup } from "~content/types";

/** schema.org FAQPage with every question of every group. */
export function faqStructuredData(groups: FaqGroup[]) {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: groups.flatMap((group) =>
      group.questions.map((item) => ({
        "@type": "Question",
        name: item.question,
        acceptedAnswer: { "@type": "Answer", text: item.answer.join("\n") },
      })),
    ),
  };
}
