import * as z from "zod/mini";

// The tree-shakable build for screens that only need a few checks; the same eval-free setting as ./zod.
z.config({ jitless: true });

export { z };
