/** Chinese readers take in roughly 450 characters a minute; Latin words count as one character each. */
export const CHARACTERS_PER_MINUTE = 450;

const hanCharacter = /\p{Script=Han}/gu;
const latinWord = /[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*/g;

/** Whole minutes, at least one, for a plain-text or Markdown body. */
export function readingMinutes(text: string): number {
  const characters = (text.match(hanCharacter)?.length ?? 0) + (text.match(latinWord)?.length ?? 0);
  return Math.max(1, Math.round(characters / CHARACTERS_PER_MINUTE));
}
