// The parser ships no types: it turns Prometheus text into one object per metric family.
declare module "parse-prometheus-text-format" {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
