import { Link } from "react-router";
import { ClosingCall } from "./closing-call";
import { ContentStyles } from "./content-styles";
import { FaqItem } from "./faq-item";
import { Illustration } from "./illustration";
import { StartLinks } from "./start-links";
import type { FaqQuestion, HomeContent } from "~content/types";

type Props = Omit<HomeContent, "faqTeaser"> & { faqTeaser: { title: string; questions: FaqQuestion[] } };

export function HomePage({ intro, hero, steps, approach, ages, faqTeaser, closing }: Props) {
  return (
    <main className="home">
      <ContentStyles />
      <section className="home-hero">
        <div>
          <h1>{hero.heading}</h1>
          <p className="home-hero__lead">{intro.lead}</p>
          <StartLinks />
        </div>
        <Illustration className="home-hero__image" image={hero.image} eager />
      </section>

      <section className="home-section" aria-labelledby="home-steps">
        <h2 id="home-steps">{steps.title}</h2>
        <ol className="home-steps">
          {steps.items.map((step, index) => (
            <li key={step.title} className="card home-steps__item">
              <Illustration image={step.image} />
              <h3>
                <span className="home-steps__number">{index + 1}</span>
                {step.title}
              </h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="home-section home-section--tinted" aria-labelledby="home-approach">
        <h2 id="home-approach">{approach.title}</h2>
        <ul className="feature-grid feature-grid--four">
          {approach.points.map((point) => (
            <li key={point.title} className="card">
              <h3>{point.title}</h3>
              <p>{point.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="home-section" aria-labelledby="home-ages">
        <h2 id="home-ages">{ages.title}</h2>
        <p>{ages.text}</p>
        <dl className="home-ages">
          {ages.bands.map((band) => (
            <div key={band.label} className="home-ages__band">
              <dt>{band.label}</dt>
              <dd>{band.text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="home-section home-section--tinted" aria-labelledby="home-faq">
        <h2 id="home-faq">{faqTeaser.title}</h2>
        <div className="faq-list">
          {faqTeaser.questions.map((item) => (
            <FaqItem key={item.id} item={item} />
          ))}
        </div>
        <p>
          <Link to="/faq">查看所有常見問題</Link>
        </p>
      </section>

      <ClosingCall call={closing} />
    </main>
  );
}
