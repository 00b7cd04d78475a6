import { about } from "~content/about";
import { accountDeletion, currentPlan } from "~content/account";
import { faq } from "~content/faq";
import { features } from "~content/features";
import { home } from "~content/home";
import { ironman2025 } from "~content/ironman2025";
import { pages } from "~content/pages";
import { pricing } from "~content/pricing";
import { tutorial } from "~content/tutorial";
import { wishingWell } from "~content/wishing-well";
import { contentVariables } from "./variables.server";
import { fillData } from "./placeholders";

// The typed data files of content/, with brand placeholders filled in; screens read them through loaders so
// the text is part of the HTML and never duplicated in a JavaScript chunk.
const dataFiles = { about, accountDeletion, currentPlan, faq, features, home, ironman2025, pages, pricing, tutorial, wishingWell };

export type DataFileName = keyof typeof dataFiles;

export function loadData<Name extends DataFileName>(name: Name): (typeof dataFiles)[Name] {
  return fillData(dataFiles[name], contentVariables(), `content data "${name}"`);
}

/** The home screen's content with its FAQ teaser questions taken from the FAQ file. */
export function loadHome() {
  const content = loadData("home");
  const questions = loadData("faq").groups.flatMap((group) => group.questions);
  const teaser = content.faqTeaser.questionIds.map((id) => {
    const question = questions.find((candidate) => candidate.id === id);
    if (!question) throw new Error(`content/home.ts: no FAQ question "${id}"`);
    return question;
  });
  return { ...content, faqTeaser: { title: content.faqTeaser.title, questions: teaser } };
}

/** The current-plan screen's content with the plan on offer taken from the pricing file. */
export function loadCurrentPlan() {
  const plan = loadData("pricing").plans.find((candidate) => candidate.status === "available");
  if (!plan) throw new Error('content/pricing.ts: no plan with status "available"');
  return { ...loadData("currentPlan"), plan };
}
