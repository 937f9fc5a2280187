// The demo knowledge base: a small physiotherapy clinic, "Harbor Physio". Replies are markdown
// (lists, bold, links) so the widget's renderer has real material; every URL is under example.com.
import { DEMO_ADDRESS, DEMO_BOOKING_CONFIG, DEMO_PRICES } from '../demo-data';

export interface Article {
  id: string;
  title: string;
  url: string;
  /** Lower-case words or phrases; a question matching more of them ranks the article higher. */
  keywords: string[];
  answer: string;
}

const SITE = 'https://example.com/harbor-physio';

export const ARTICLES: readonly Article[] = [
  {
    id: 'kb-hours',
    title: 'Opening hours',
    url: `${SITE}/hours`,
    keywords: ['open', 'opening', 'hours', 'close', 'closing', 'weekend', 'saturday', 'sunday', 'when'],
    answer: [
      'Harbor Physio is open:',
      '',
      '- **Monday to Friday:** 9:00 AM - 5:00 PM',
      '- **Saturday:** 10:00 AM - 1:00 PM',
      '- **Sunday:** closed',
      '',
      'All times are Eastern Time. See [our opening hours](https://example.com/harbor-physio/hours)',
      'for holiday closures.',
    ].join('\n'),
  },
  {
    id: 'kb-prices',
    title: 'Prices and insurance',
    url: `${SITE}/prices`,
    keywords: ['price', 'prices', 'cost', 'costs', 'fee', 'fees', 'how much', 'insurance', 'pay', 'payment'],
    answer: [
      'Our prices:',
      '',
      ...DEMO_PRICES.map(({ optionId, name, price }, i) => {
        const option = DEMO_BOOKING_CONFIG.duration_options.find((o) => o.id === optionId);
        return `${i + 1}. **${name}${option ? ` (${option.duration_minutes} min)` : ''}:** ${price}`;
      }),
      '',
      'We accept most major insurers and card payments.',
      'Details are on [prices and insurance](https://example.com/harbor-physio/prices).',
    ].join('\n'),
  },
  {
    id: 'kb-location',
    title: 'Finding us',
    url: `${SITE}/location`,
    keywords: ['where', 'address', 'location', 'located', 'parking', 'park', 'directions', 'find you', 'bus', 'train'],
    answer: [
      `You will find us at **${DEMO_ADDRESS}** (second floor, lift available).`,
      '',
      '- Free parking behind the building',
      '- Bus lines 4 and 11 stop at Harbor Square',
      '',
      'Directions and a map: [finding us](https://example.com/harbor-physio/location).',
    ].join('\n'),
  },
  {
    id: 'kb-services',
    title: 'Services',
    url: `${SITE}/services`,
    keywords: ['service', 'services', 'treat', 'treatment', 'back', 'knee', 'sports', 'injury', 'massage', 'rehab', 'pain'],
    answer: [
      'We treat most muscle and joint problems, including:',
      '',
      '- **Back and neck pain**',
      '- **Sports injuries** (knees, ankles, shoulders)',
      '- **Post-surgery rehab**',
      '- **Sports massage**',
      '',
      'Not sure which visit fits? Start with a free **15 min intro**.',
      'More on [our services](https://example.com/harbor-physio/services).',
    ].join('\n'),
  },
  {
    id: 'kb-booking',
    title: 'Booking and cancellation policy',
    url: `${SITE}/booking-policy`,
    keywords: ['book', 'booking', 'appointment', 'schedule', 'cancel', 'cancellation', 'reschedule', 'policy'],
    answer: [
      'You can book right here in the chat window: open **Book** and pick a time.',
      '',
      '- Book at least **4 hours** ahead, up to **60 days** ahead',
      '- Cancel online up to **24 hours** before your visit with your booking code (BK-…)',
      '- Later than that, please call us',
      '',
      'Read the [booking and cancellation policy](https://example.com/harbor-physio/booking-policy).',
    ].join('\n'),
  },
];

export const GREETING =
  "Hi! I'm the Harbor Physio assistant. Ask me about **opening hours**, **prices**, **where we are** " +
  'or **our services**, or book a visit.';

export const FALLBACK = [
  "I'm not sure about that one. I can help with:",
  '',
  '- opening hours',
  '- prices and insurance',
  '- location and parking',
  '- services we offer',
  '',
  'Or **book a free 15 min intro** and ask us in person.',
].join('\n');

/** The reply to the documented test hook '/markdown-test': every markdown feature, no HTML. */
export const MARKDOWN_SAMPLE = [
  '# Heading one',
  '## Heading two',
  '',
  'A paragraph with **bold**, *italic*, `inline code` and a [link](https://example.com/harbor-physio).',
  'A second line in the same paragraph.',
  '',
  '- bullet one',
  '- bullet two with **bold**',
  '',
  '1. first',
  '2. second',
  '',
  '> A quoted line.',
  '',
  '```',
  'const code = "block";',
  '```',
  '',
  'Contact: [email](mailto:hello@example.com) or [phone](tel:+15550100).',
  '',
  'Bare: https://example.com/harbor-physio/prices, front-desk@example.com or +1 (555) 010-0199.',
  '',
  '![Treatment room with a window](https://example.com/room.jpg)',
  '',
  '| Appointment | Length | Price |',
  '|---|---|--:|',
  '| Intro call | 15 min | free |',
  '| Treatment session with a longer name than fits | 60 min | $120 |',
].join('\n');
