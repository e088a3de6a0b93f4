// The rules of Blueprint's components that the first screens do not draw (scripts/blueprintCss.ts): every lazily
// loaded route waits for them (src/app/router.tsx).
import '@blueprintjs/core/lib/css/blueprint.css?part=later';
