import { Leaf, Mic2, School } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { InfoCard, Section, StaticPage } from './components/section.tsx';
import { usePageMeta } from './use-page-meta.ts';

export function SocialImpactPage() {
  usePageMeta('/social-impact');
  return (
    <StaticPage
      title="Social Impact"
      lede="Commerce that keeps more money in creative communities, and physical media that wastes less."
    >
      <Section id="commitments" eyebrow="Where it shows" title="Impact we design for">
        <div className="grid gap-4 md:grid-cols-3">
          <InfoCard
            title="More income for independents"
            icon={<Mic2 className="size-5" aria-hidden="true" />}
          >
            Selling direct in a live room means the creator keeps the margin a chain of intermediaries would
            take. Free accounts can sell from day one.
          </InfoCard>
          <InfoCard title="Lighter physical media" icon={<Leaf className="size-5" aria-hidden="true" />}>
            A Stream Disc weighs a fraction of a vinyl record and needs no plastic case or player to be
            useful, so pressing and shipping it uses far less material.
          </InfoCard>
          <InfoCard title="Access for local scenes" icon={<School className="size-5" aria-hidden="true" />}>
            The 100+ tier is priced at cost, so community radio, school bands and film clubs can press a run
            without a label behind them.
          </InfoCard>
        </div>
      </Section>
      <Section
        id="next"
        eyebrow="What comes next"
        title="We report on it"
        intro="Once the marketplace is out of beta we will publish what share of each sale reaches creators and how many discs were pressed at cost, every year."
      >
        <Button asChild size="lg">
          <Link to="/">Join the beta</Link>
        </Button>
      </Section>
    </StaticPage>
  );
}
