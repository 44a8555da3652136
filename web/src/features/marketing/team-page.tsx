import { Section, StaticPage } from './components/section.tsx';
import { usePageMeta } from './use-page-meta.ts';

const MEMBERS = [
  {
    name: 'Jordan Ellis',
    role: 'Founder & CEO',
    bio: 'Ran merch and tour retail for independent bands for a decade and watched the best-selling moment of every show happen live. Started StreamShop to put that moment online.',
    hue: 280,
  },
  {
    name: 'Priya Raman',
    role: 'Co-founder & CTO',
    bio: 'Built streaming and payments systems before leading the engineering of StreamShop’s live rooms, storefronts and the Stream Disc’s tap-link service.',
    hue: 330,
  },
];

function Avatar({ name, hue }: { name: string; hue: number }) {
  const initials = name
    .split(' ')
    .map((part) => part[0])
    .join('');
  return (
    <svg
      viewBox="0 0 96 96"
      role="img"
      aria-label={`Portrait placeholder for ${name}`}
      className="size-24 shrink-0"
    >
      <circle cx="48" cy="48" r="48" fill={`hsl(${hue} 70% 45%)`} />
      <circle cx="48" cy="48" r="40" fill="none" stroke="#fff" strokeOpacity="0.25" strokeWidth="2" />
      <text
        x="48"
        y="58"
        textAnchor="middle"
        fill="#fff"
        fontSize="28"
        fontWeight="700"
        fontFamily="system-ui, sans-serif"
      >
        {initials}
      </text>
    </svg>
  );
}

export function TeamPage() {
  usePageMeta('/team');
  return (
    <StaticPage
      title="Our Team"
      lede="A small team of people who have sold records at the merch table and shipped software at scale."
    >
      <Section id="members" title="The people behind StreamShop">
        <ul className="grid gap-6 md:grid-cols-2">
          {MEMBERS.map((member) => (
            <li
              key={member.name}
              className="flex gap-5 rounded-xl border border-border bg-card/70 p-6"
              data-testid="team-member"
            >
              <Avatar name={member.name} hue={member.hue} />
              <div>
                <h3 className="font-semibold text-xl">{member.name}</h3>
                <p className="font-medium text-primary text-sm">{member.role}</p>
                <p className="mt-3 text-muted-foreground text-sm leading-relaxed">{member.bio}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>
    </StaticPage>
  );
}
