/**
 * What the sign-in layer accepts at its body boundary, before any rule or Better Auth reads a field: a JSON body is
 * an object, and no string in the body or the query holds a control character. PostgreSQL refuses NUL in text (a
 * 500 where the client made the mistake), and no field of ours (names, emails, passwords, codes, links) has a use
 * for control characters (C0, DEL, C1); tab, line feed and carriage return stay.
 */
const controlCharacter = /(?![\t\n\r])\p{Cc}/u;

export type BodyProblem = "not-an-object" | "control-character";

function holdsControlCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return controlCharacter.test(value);
  // Deeper than any body of ours: refused as a shape no endpoint takes.
  if (depth > 32) return true;
  if (Array.isArray(value)) return value.some((item) => holdsControlCharacter(item, depth + 1));
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, item]) => controlCharacter.test(key) || holdsControlCharacter(item, depth + 1));
  }
  return false;
}

/** The body's shape problem: anything but an object (an array, a string, a number, `null`) when a body was sent. */
export function bodyShapeProblem(body: unknown): BodyProblem | null {
  if (body === undefined) return null;
  return body !== null && typeof body === "object" && !Array.isArray(body) ? null : "not-an-object";
}

/** A control character anywhere in the body's or the query's strings (keys included). */
export function controlCharacterProblem(body: unknown, query: unknown): BodyProblem | null {
  return holdsControlCharacter(body) || holdsControlCharacter(query) ? "control-character" : null;
}
