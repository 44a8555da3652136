import { HandHeart, Sprout, Store } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { InfoCard, Section, StaticPage } from './components/section.tsx';
import { usePageMeta } from './use-page-meta.ts';

export function MissionPage() {
  usePageMeta('/mission');
  return (
    <StaticPage
      title="Our Mission"
      lede="Help independent creators earn a living from the people who love their work, by putting the shop inside the show and the show inside something fans can keep."
    >
      <Section id="why" eyebrow="Why we exist" title="Attention is abundant. Direct support is rare.">
        <div className="grid gap-6 text-lg text-muted-foreground leading-relaxed md:grid-cols-2">
          <p>
            Musicians, filmmakers and artists reach more people than ever, yet most of that reach flows
            through platforms that pay per play and own the relationship with the audience. A creator with ten
            thousand real fans should be able to make a living from them.
          </p>
          <p>
            StreamShop gives those creators a live room to sell in, a storefront that remembers every stream,
            and the Stream Disc: a physical edition that plays on any phone and leads the owner straight back
            to the creator.
          </p>
        </div>
      </Section>
      <Section id="principles" eyebrow="What guides us" title="Three commitments">
        <div className="grid gap-4 md:grid-cols-3">
          <InfoCard
            title="Creators own the relationship"
            icon={<HandHeart className="size-5" aria-hidden="true" />}
          >
            Buyers are the seller’s customers, not ours. Creators see who bought, and can reach them again.
          </InfoCard>
          <InfoCard title="Fair, visible pricing" icon={<Store className="size-5" aria-hidden="true" />}>
            Disc prices are public and fall with volume, down to cost at 100 or more. No hidden fees at
            checkout.
          </InfoCard>
          <InfoCard title="Made to last" icon={<Sprout className="size-5" aria-hidden="true" />}>
            A disc that keeps working after an app is gone: its links are open web addresses, not a locked
            player.
          </InfoCard>
        </div>
        <Button asChild size="lg" className="mt-10">
          <Link to="/">Join the beta</Link>
        </Button>
      </Section>
    </StaticPage>
  );
}
