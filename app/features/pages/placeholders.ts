/** Brand values content may name as `{{productName}}`, `{{supportEmail}}`, `{{appUrl}}` or `{{siteUrl}}`. */
export interface ContentVariables {
  productName: string;
  supportEmail: string;
  appUrl: string;
  siteUrl: string;
}

const placeholder = /\{\{\s*(\w+)\s*\}\}/g;

/** Replaces every placeholder in `text`; an unknown name is an authoring mistake and throws. */
export function fillText(text: string, variables: ContentVariables, source = "content"): string {
  return text.replace(placeholder, (_match, name: string) => {
    if (!Object.hasOwn(variables, name)) throw new Error(`${source}: unknown placeholder {{${name}}}`);
    return variables[name as keyof ContentVariables];
  });
}

/** `fillText` over every string of a typed data file (objects and arrays walked, other values kept). */
export function fillData<T>(value: T, variables: ContentVariables, source = "content"): T {
  if (typeof value === "string") return fillText(value, variables, source) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => fillData(item, variables, source)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillData(item, variables, source)]),
    ) as T;
  }
  return value;
}
