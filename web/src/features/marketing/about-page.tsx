import { Activity, Cloud, CreditCard, Gauge, Lock, Rocket, Server, ShieldCheck, Users } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { PartnerWordmark } from './components/logos.tsx';
import { InfoCard, Section, StaticPage } from './components/section.tsx';
import { usePageMeta } from './use-page-meta.ts';

const PILLARS = [
  {
    title: 'Live-first commerce',
    text: 'The stream room is the checkout: products on screen, chat beside them, one tap to buy.',
    Icon: Rocket,
  },
  {
    title: 'Phygital collectibles',
    text: 'The Stream Disc joins a physical edition to a streaming release with NFC and QR.',
    Icon: Activity,
  },
  {
    title: 'Creator ownership',
    text: 'Storefronts, replays and customer lists belong to the seller and move with them.',
    Icon: Users,
  },
];

const ASSURANCE = [
  {
    title: '99.9% uptime target',
    text: 'Stateless servers behind a load balancer, with health checks and graceful restarts.',
    Icon: Gauge,
  },
  {
    title: 'SOC 2 Type II',
    text: 'Access control, change management and monitoring run to SOC 2 Type II practices.',
    Icon: ShieldCheck,
  },
  {
    title: 'PCI DSS',
    text: 'Card data goes straight to a PCI DSS certified payment provider and never touches our servers.',
    Icon: CreditCard,
  },
  {
    title: 'Encrypted everywhere',
    text: 'TLS in transit, encrypted backups at rest, and HttpOnly sessions for every account.',
    Icon: Lock,
  },
];

/** Milestones, not invented numbers: real figures go here once they are public. */
const TRACTION = [
  { value: 'Beta', label: 'live rooms, storefronts and replays open to early sellers' },
  { value: '3', label: 'disc editions in production: music, film and art' },
  { value: '1-1,000', label: 'discs per order, priced from $5.00 down to $2.50' },
];

/** The kinds of partners we work with, each with its own mark. */
const PARTNERS = [
  { name: 'Pressing plants', hue: 280 },
  { name: 'Independent labels', hue: 20 },
  { name: 'Film festivals', hue: 190 },
  { name: 'Community radio', hue: 330 },
];

export function AboutPage() {
  usePageMeta('/about');
  return (
    <StaticPage
      title="About StreamShop"
      lede="We build the live-stream marketplace and the Stream Disc: two halves of one idea, that fans should be able to buy from creators in the moment and keep something that lasts."
    >
      <Section id="pillars" eyebrow="What we build on" title="Pillars of Innovation">
        <div className="grid gap-4 md:grid-cols-3">
          {PILLARS.map(({ title, text, Icon }) => (
            <InfoCard key={title} title={title} icon={<Icon className="size-5" aria-hidden="true" />}>
              {text}
            </InfoCard>
          ))}
        </div>
      </Section>

      <Section id="assurance" eyebrow="Trust" title="Infrastructure Assurance">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {ASSURANCE.map(({ title, text, Icon }) => (
            <InfoCard key={title} title={title} icon={<Icon className="size-5" aria-hidden="true" />}>
              {text}
            </InfoCard>
          ))}
        </div>
        <p className="mt-4 flex items-center gap-2 text-muted-foreground text-sm">
          <Server className="size-4" aria-hidden="true" />
          <Cloud className="size-4" aria-hidden="true" />
          Runs on PostgreSQL with Redis for scale-out; each instance can be replaced without dropping a live
          room.
        </p>
      </Section>

      <Section id="traction" eyebrow="Momentum" title="Traction">
        <dl className="grid gap-4 sm:grid-cols-3">
          {TRACTION.map((item) => (
            <div
              key={item.label}
              className="flex flex-col-reverse rounded-xl border border-border bg-card/70 p-6 text-center"
            >
              <dt className="mt-1 text-muted-foreground text-sm">{item.label}</dt>
              <dd className="font-extrabold text-4xl text-purple-300">{item.value}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section
        id="partners"
        eyebrow="Together with"
        title="Partners"
        intro="Stream Disc is made with the people who already serve creators."
      >
        <ul
          className="grid grid-cols-1 items-center gap-6 sm:grid-cols-2 lg:grid-cols-4"
          data-testid="partner-logos"
        >
          {PARTNERS.map((partner) => (
            <li
              key={partner.name}
              className="flex justify-center rounded-xl border border-border bg-card/40 p-4"
            >
              <PartnerWordmark name={partner.name} hue={partner.hue} />
            </li>
          ))}
        </ul>
      </Section>

      <section className="mx-auto w-full max-w-6xl px-4 pt-6 pb-20 sm:px-6">
        <div className="flex flex-col items-center gap-4 rounded-3xl border border-primary/40 bg-gradient-to-br from-purple-900/60 to-background p-10 text-center">
          <h2 className="font-bold text-3xl tracking-tight">Sell live with us</h2>
          <p className="max-w-xl text-muted-foreground">
            Open a storefront in minutes, go live, and press your first discs.
          </p>
          <div className="flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to="/">Join the beta</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/">See how it works</Link>
            </Button>
          </div>
        </div>
      </section>
    </StaticPage>
  );
}
