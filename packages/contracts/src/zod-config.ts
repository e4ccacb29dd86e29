// Imported first by index.ts, before any schema is defined (zod decides at definition whether to compile parsers).
// The web app's Content-Security-Policy forbids eval: zod then compiles no parser at run time, and makes no probe
// with Function("") that the browser would report as a violation.
import { z } from "zod";

z.config({ jitless: true });
