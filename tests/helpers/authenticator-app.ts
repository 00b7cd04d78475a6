import { TOTP } from "otpauth";

const STEP_MS = 30_000;
/** The previous step's code is offered only while this much of the current step is left: it expires with it. */
const PREVIOUS_STEP_MARGIN_MS = 10_000;

/** The secret of an `otpauth://` address, or a secret as shown to be typed (spaces allowed). */
const secretOf = (secretOrUri: string) =>
  secretOrUri.startsWith("otpauth://") ? (new URL(secretOrUri).searchParams.get("secret") ?? "") : secretOrUri.replace(/\s+/g, "");

/**
 * An authenticator app for a secret or an `otpauth://` address. The server accepts the code of this 30-second
 * step, the one before and the one after, each once: the app gives the next step's first (it stays valid
 * longest), then this step's, then the previous step's while enough of this step is left (it expires at the next
 * boundary, under load maybe before it arrives). Once all are spent it waits for the next step, as a parent would.
 * `acceptedNow()` is every code the server would accept at this moment, to pick a wrong one.
 */
export function authenticatorApp(secretOrUri: string) {
  const totp = new TOTP({ secret: secretOf(secretOrUri), digits: 6, period: STEP_MS / 1000 });
  const codeAt = (steps: number) => totp.generate({ timestamp: Date.now() + steps * STEP_MS });
  const given = new Set<string>();
  const nextCode = async (): Promise<string> => {
    for (;;) {
      const leftInStep = STEP_MS - (Date.now() % STEP_MS);
      for (const steps of leftInStep > PREVIOUS_STEP_MARGIN_MS ? [1, 0, -1] : [1, 0]) {
        const code = codeAt(steps);
        if (!given.has(code)) {
          given.add(code);
          return code;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, STEP_MS - (Date.now() % STEP_MS) + 200));
    }
  };
  return Object.assign(nextCode, { acceptedNow: () => new Set([-1, 0, 1].map(codeAt)) });
}
