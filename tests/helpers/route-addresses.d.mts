export const unknownId: string;
export function exampleAddress(path: string): string;
export function authAddresses(): string[];
