import { z } from "zod";

// zod would probe for eval (new Function) to compile faster object parsers; the CSP refuses eval, and the probe
// alone is reported as a violation. The setting is read when an object schema is built, so every module that
// builds schemas imports zod from here: the config runs before any of them, in the browser and on the server.
z.config({ jitless: true });

export { z };
