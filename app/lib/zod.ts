import { z } from "zod";

// zod would probe for eval (new Function) to compile faster object parsers; the CSP refuses eval, and the probe
// alone is reported as a violation. The setting is read when an object schema is built, so every module that can
// reach the browser imports zod from here (or from ./zod-mini): the config runs before any of its schemas are
// built, and a page that builds no schema loads no zod (lint enforces it).
z.config({ jitless: true });

export { z };
