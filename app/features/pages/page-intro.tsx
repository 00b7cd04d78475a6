import { ContentStyles } from "./content-styles";

/** The heading and lead paragraph every content screen opens with. */
export function PageIntro({ title, lead, children }: { title: string; lead?: string; children?: React.ReactNode }) {
  return (
    <header className="page-intro">
      <ContentStyles />
      <h1>{title}</h1>
      {lead ? <p className="page-intro__lead">{lead}</p> : null}
      {children}
    </header>
  );
}
