import { z } from 'zod';

// The server's Content-Security-Policy allows no JavaScript eval. Without this, zod probes `new Function`
// when its first object schema is made (the browser reports a CSP violation even though zod catches it)
// and would compile its parsers with it. Every browser entry (the page, the DuckDB worker) imports this
// module first, before any schema exists.
z.config({ jitless: true });
