export const unknownId: string;
export function exampleAddress(path: string): string;
