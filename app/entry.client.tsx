import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { nextTurn } from "~/lib/next-turn";

/**
 * React Router's default entry, but hydrating in the turn after this module's: evaluating React DOM's client (a
 * few milliseconds, ×4 on a slow phone) and starting hydration are then two tasks rather than one long one
 * (decision 710).
 */
void nextTurn().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
