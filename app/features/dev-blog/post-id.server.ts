import { randomBytes } from "node:crypto";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 20 letters and digits (about 119 bits), drawn without modulo bias: bytes of 248 and above are skipped. */
export function newPostId(): string {
  let id = "";
  while (id.length < 20) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && id.length < 20) id += alphabet[byte % alphabet.length];
    }
  }
  return id;
}
