/**
 * Rewrites React Router's hydration scripts so the browser fetches the page's JavaScript only after the first
 * paint. On a phone the text and the hero image then get the whole connection (six per host under HTTP/1.1)
 * instead of sharing it with a dozen module requests, and the page is readable before it is interactive; links
 * and POST forms work without JavaScript meanwhile. Decision 700 has the measurements.
 *
 * The input is the exact markup `<Scripts />` of react-router 7.18.4 writes: `<link rel="modulepreload">` tags
 * (hoisted into <head>) and one inline `<script type="module" async>` (after its `nonce` on a server-rendered
 * page) whose static imports load the matched route
 * modules. The imports become dynamic ones that wait for the first frame, and the preloads are added then.
 * Markup without these parts (an error page, a resource route) is returned unchanged.
 */
export function deferHydration(html: string): string {
  const preloads: string[] = [];
  const withoutPreloads = html.replace(/<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g, (_, href: string) => {
    preloads.push(href);
    return "";
  });
  let rewritten = false;
  const result = withoutPreloads.replace(
    /(<script(?: nonce="[^"]*")? type="module" async=""[^>]*>)([\s\S]*?)(<\/script>)/,
    (whole, open: string, code: string, close: string) => {
      const imports: { name: string; href: string }[] = [];
      const body = code
        .replace(/import \* as (\w+) from ("[^"]+");/g, (_, name: string, href: string) => {
          imports.push({ name, href });
          return "";
        })
        .replace(/^;/, "");
      if (imports.length === 0) return whole;
      rewritten = true;
      // The body ends by importing the entry module, which hydrates: it stays last.
      const entries = [...body.matchAll(/import\("([^"]+)"\)/g)].flatMap(([, href]) => href ?? []);
      const routeModules = new Set(imports.map((i) => JSON.parse(i.href) as string));
      return `${open}${keepEarlyTaps}${afterFirstPaint}${inTurns(preloads, dependenciesFirst(preloads, routeModules), entries)}const [${imports.map((i) => i.name).join(",")}]=await Promise.all([${imports
        .map((i) => `import(${i.href})`)
        .join(",")}]);await nextTurn();${body}${close}`;
    },
  );
  return rewritten ? result : html;
}

/**
 * Waits for the first contentful paint (a Paint Timing entry, so no timers: pages under a test's fake clock
 * hydrate too), at once in a hidden tab or a browser without paint entries, and at most 3 s.
 */
const afterFirstPaint =
  `await new Promise((go)=>{` +
  `if(document.visibilityState!=="visible"||!PerformanceObserver.supportedEntryTypes?.includes("paint"))return go();` +
  `new PerformanceObserver((_,observer)=>{observer.disconnect();go()}).observe({type:"paint",buffered:true});setTimeout(go,3000)});`;

/**
 * Loads the page's modules without a long task on a slow phone's main thread: each modulepreload link (so they
 * download in parallel rather than one import after another) is added in a task of its own, as each costs the
 * browser a request's set-up, and the modules are then evaluated one at a time with a turn in between: the
 * runtime, React DOM, React and React Router, then each route's chunks and the route module (dependenciesFirst).
 * `nextTurn` gives the main thread back (scheduler.yield where there is one, else a message, which a hidden tab
 * does not throttle as it does timers). Decision 710.
 */
function inTurns(preloads: string[], evaluationOrder: string[], entries: string[]): string {
  return (
    `const nextTurn=()=>globalThis.scheduler?.yield?.()??new Promise((go)=>{const channel=new MessageChannel();channel.port1.onmessage=()=>go();channel.port2.postMessage(0)});` +
    `for(const href of ${JSON.stringify(preloads)}){await nextTurn();const link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.append(link)}` +
    `for(const href of ${JSON.stringify(evaluationOrder.filter((href) => !entries.includes(href)))}){await nextTurn();await import(href)}`
  );
}

/**
 * The preloads in an order that evaluates a chunk before the modules that import it, as far as the list tells:
 * React Router lists the entry's imports in that order, then each route module (or a route's split modules)
 * before the chunks it brings, which mostly come after the chunks that import them. So each route's chunks are
 * taken backwards, then the route module: a form's zod is then evaluated in a task of its own, not with the page.
 */
export function dependenciesFirst(preloads: string[], routeModules: Set<string>): string[] {
  const ordered: string[] = [];
  let routes: string[] = [];
  let chunks: string[] = [];
  const flush = () => {
    ordered.push(...chunks.reverse(), ...routes);
    routes = [];
    chunks = [];
  };
  for (const href of preloads) {
    if (routeModules.has(href)) {
      if (chunks.length > 0) flush();
      routes.push(href);
    } else if (routes.length > 0) chunks.push(href);
    else ordered.push(href);
  }
  flush();
  return ordered;
}

/**
 * Taps on buttons (and on links marked `data-keep-early-tap`, which open a dialog with JavaScript and lead to a page
 * without it) until the root marks `<html data-hydrated>` are kept, each once, and replayed with `click()` then:
 * a script-only button would do nothing before, and a form's button, tapped while React hydrates, was lost in 1
 * of 10 tries (no submission at all: React saw the tap on a part not yet hydrated). They are kept from React too
 * (this listener comes first on the document), so a tap is never played twice. Links and the `<details>` menus
 * work from the server's HTML and pass. If the page's modules fail to load, or it is not hydrated after 15 s,
 * the taps are played as they are (a form then submits without JavaScript).
 */
const keepEarlyTaps =
  `{const taps=[];let kept=true;` +
  `const keep=(event)=>{const button=event.target instanceof Element&&event.target.closest("button,[data-keep-early-tap]");` +
  `if(button){if(!taps.includes(button))taps.push(button);event.preventDefault();event.stopImmediatePropagation()}};` +
  `const release=()=>{if(!kept)return;kept=false;document.removeEventListener("click",keep,true);` +
  `for(const button of taps)if(button.isConnected&&!button.disabled)button.click()};` +
  `document.addEventListener("click",keep,true);addEventListener("error",release);addEventListener("unhandledrejection",release);setTimeout(release,15000);` +
  `new MutationObserver((_,observer)=>{if(!document.documentElement.hasAttribute("data-hydrated"))return;observer.disconnect();release()})` +
  `.observe(document.documentElement,{attributes:true,attributeFilter:["data-hydrated"]})}`;
