/** Shapes of the typed content files in this folder; they depend on nothing in app/. */

export interface Image {
  src: string;
  width: number;
  height: number;
}

/** The heading, lead paragraph and meta description of a screen. */
export interface PageIntro {
  title: string;
  lead: string;
  description: string;
}

export interface Illustrated {
  title: string;
  text: string;
  image: Image;
}

export interface CallToAction {
  title: string;
  text: string;
}

export interface HomeContent {
  intro: PageIntro;
  hero: { heading: string; image: Image };
  steps: { title: string; items: Illustrated[] };
  approach: { title: string; points: { title: string; text: string }[] };
  ages: { title: string; text: string; bands: { label: string; text: string }[] };
  faqTeaser: { title: string; questionIds: string[] };
  closing: CallToAction;
}

export interface FeatureItem {
  id: string;
  title: string;
  text: string;
  details: string[];
}

export interface FeaturesContent {
  intro: PageIntro;
  items: FeatureItem[];
  closing: CallToAction;
}

export interface Plan {
  name: string;
  status: "available" | "coming";
  summary: string;
  includes: string[];
}

export interface PricingContent {
  intro: PageIntro;
  plans: Plan[];
  notes: { title: string; text: string }[];
}

export interface FaqQuestion {
  id: string;
  question: string;
  answer: string[];
}

export interface FaqGroup {
  id: string;
  title: string;
  questions: FaqQuestion[];
}

export interface FaqContent {
  intro: PageIntro;
  groups: FaqGroup[];
  contact: CallToAction;
}

export interface AboutContent {
  intro: PageIntro;
  sections: { title: string; paragraphs: string[] }[];
  values: { title: string; items: { title: string; text: string }[] };
  contact: CallToAction;
}

export interface TutorialContent {
  intro: PageIntro;
  steps: (Illustrated & { tips: string[] })[];
  closing: CallToAction;
}

export interface IronmanArticle {
  day: number;
  title: string;
  summary: string;
  /** The day's own article; absent while unknown (no link is shown then). */
  url?: string;
}

export interface IronmanContent {
  intro: PageIntro;
  seriesUrl: string;
  /** Shown when some days have no known article address yet. */
  missingLinkNote: string;
  articles: IronmanArticle[];
}

export interface CurrentPlanContent {
  intro: PageIntro;
  planName: string;
  limits: string[];
  signedIn: CallToAction;
  visitor: CallToAction;
  /** Shown to a guest, with the way up (the sign-up screen upgrades the same account). */
  guest: CallToAction;
}

export interface AccountDeletionContent {
  intro: PageIntro;
  sections: { title: string; items: string[] }[];
  byEmail: { title: string; text: string; subject: string };
  selfService: { title: string; text: string; signedInText: string; confirmWord: string; done: string };
  /** What the page says when the app opened it (`?app=` after /account-deletion/from-app). */
  fromApp: { confirmed: string; "other-account": string; expired: string };
}
