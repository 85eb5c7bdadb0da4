/**
 * What the starter cards of `agent-card init` say (the example cards in `examples/cards`), so the
 * validator can tell a card that still carries one (rule `template-content`, RULES.md §6.3)
 * without core depending on the CLI. `templates.test.ts` fails when an example card and its
 * entry here disagree.
 */

/** A shipped template: the content a user has to replace before publishing. */
export interface TemplateFingerprint {
  /** The template's name in `agent-card init --template <name>`. */
  readonly template: string;
  readonly name: string;
  readonly description: string;
  readonly organization: string;
  /** Registrable domains of the template's URLs: the card's own hosts are these or under them. */
  readonly domains: readonly string[];
  readonly skills: readonly { readonly id: string; readonly name: string; readonly description: string }[];
  /**
   * Values `agent-card init` copies as they are and only the template has: the texts, URLs and
   * API key header names of its security schemes and extensions. One of them left in a card is
   * enough to tell the card was made from the template.
   */
  readonly distinctive: readonly string[];
}

export const TEMPLATE_FINGERPRINTS: readonly TemplateFingerprint[] = [
  {
    template: 'support',
    name: 'Larkspur Telecom Support Agent',
    description:
      'Answers questions about Larkspur mobile and broadband plans, diagnoses connection problems, explains bills and opens support tickets that a human engineer follows up.',
    organization: 'Larkspur Telecom Ltd.',
    domains: ['larkspur-telecom.com'],
    skills: [
      {
        id: 'diagnose-connection',
        name: 'Diagnose a connection problem',
        description:
          'Runs line and device checks for a broadband or mobile subscription and explains the likely cause of slow or dropped connections.',
      },
      {
        id: 'explain-bill',
        name: 'Explain a bill',
        description:
          'Breaks down the charges on a monthly bill, including roaming, add-ons and pro-rata changes after a plan switch.',
      },
      {
        id: 'open-ticket',
        name: 'Open a support ticket',
        description:
          'Creates a ticket for an engineer visit or a callback and returns the ticket number and the next available slot.',
      },
    ],
    distinctive: ['Customer access token issued by the Larkspur account service.'],
  },
  {
    template: 'booking',
    name: 'Harbourline Travel Booking Agent',
    description:
      'Searches and books ferry crossings, rail tickets and partner hotels across the Harbourline network, and changes or cancels existing bookings for the signed-in traveller.',
    organization: 'Harbourline Travel Group',
    domains: ['harbourline-travel.com'],
    skills: [
      {
        id: 'search-crossings',
        name: 'Search crossings',
        description:
          'Finds ferry and rail connections between two ports or stations for a date, with prices per fare class and cabin availability.',
      },
      {
        id: 'book-trip',
        name: 'Book a trip',
        description:
          "Books a selected crossing and optional hotel nights, takes payment with the traveller's saved card and returns the booking reference.",
      },
      {
        id: 'manage-booking',
        name: 'Change or cancel a booking',
        description:
          'Moves a booking to another date, adds passengers or vehicles, or cancels it and explains the refund rules that apply.',
      },
    ],
    distinctive: [
      'Harbourline ID sign-in; the agent acts on behalf of the traveller.',
      'https://id.harbourline-travel.com/oauth2/authorize',
      'https://id.harbourline-travel.com/oauth2/token',
      "See the traveller's bookings",
      'Create, change and cancel bookings',
      'https://id.harbourline-travel.com/.well-known/oauth-authorization-server',
    ],
  },
  {
    template: 'shopping',
    name: 'Fernhill Market Shopping Assistant',
    description:
      'Helps shoppers find groceries and household products in the Fernhill Market catalogue, compares prices and builds a basket ready for delivery or click-and-collect.',
    organization: 'Fernhill Market plc',
    domains: ['fernhill-market.co.uk'],
    skills: [
      {
        id: 'product-search',
        name: 'Product search',
        description:
          'Searches the catalogue by name, brand, dietary need or recipe ingredient and returns products with price, unit price and stock at the chosen store.',
      },
      {
        id: 'price-compare',
        name: 'Compare prices',
        description: 'Compares pack sizes and own-brand alternatives and points out current multi-buy offers.',
      },
      {
        id: 'build-basket',
        name: 'Build a basket',
        description:
          'Adds products to a basket and reserves a delivery or collection slot; the shopper confirms payment in the Fernhill app.',
      },
    ],
    distinctive: ['Partner API key, issued in the Fernhill partner portal.', 'X-Fernhill-Partner-Key'],
  },
  {
    template: 'coding',
    name: 'Quillstack Code Review Agent',
    description:
      'Reviews pull requests in repositories connected to Quillstack, explains failing CI runs, and proposes patches with tests for the issues it finds.',
    organization: 'Quillstack Inc.',
    domains: ['quillstack.dev'],
    skills: [
      {
        id: 'review-pull-request',
        name: 'Review a pull request',
        description:
          'Reads the diff and the surrounding code of a pull request and comments on bugs, security issues and missing tests.',
      },
      {
        id: 'explain-ci-failure',
        name: 'Explain a CI failure',
        description: 'Reads the logs of a failed pipeline run, finds the first real error and explains how to fix it.',
      },
      {
        id: 'propose-patch',
        name: 'Propose a patch',
        description: 'Writes a patch with unit tests for a described bug and opens it as a draft pull request.',
      },
    ],
    distinctive: [
      'Personal or organisation access token from Quillstack settings.',
      'https://docs.quillstack.dev/a2a/extensions/repository-context/v1',
      'Lets a client pass repository and branch context with each message.',
    ],
  },
  {
    template: 'research',
    name: 'Meridian Scholar Research Agent',
    description:
      'Searches open-access journals and preprint servers, summarises papers with citations, and compiles short literature reviews on a research question.',
    organization: 'Meridian Open Science Foundation',
    domains: ['meridian-labs.org'],
    skills: [
      {
        id: 'literature-search',
        name: 'Literature search',
        description:
          'Finds peer-reviewed papers and preprints that match a question, ranked by relevance, with DOI, venue and year.',
      },
      {
        id: 'summarise-paper',
        name: 'Summarise a paper',
        description:
          'Summarises the methods, findings and limitations of one paper given its DOI or arXiv id, quoting the key numbers.',
      },
      {
        id: 'literature-review',
        name: 'Literature review',
        description: 'Writes a two-page review of the state of evidence on a question, with a numbered reference list.',
      },
    ],
    distinctive: [],
  },
  {
    template: 'workflow',
    name: 'Brightwater Operations Workflow Agent',
    description:
      "Runs Brightwater's internal operations workflows: employee onboarding, purchase approvals and month-end close checklists, calling the HR, finance and ticketing systems on behalf of other internal agents.",
    organization: 'Brightwater Logistics',
    domains: ['brightwater-logistics.com'],
    skills: [
      {
        id: 'employee-onboarding',
        name: 'Employee onboarding',
        description:
          'Creates accounts, orders equipment and schedules induction sessions for a new starter from their HR record.',
      },
      {
        id: 'purchase-approval',
        name: 'Purchase approval',
        description:
          'Routes a purchase request to the right budget holder, checks it against the procurement policy and records the decision.',
      },
      {
        id: 'month-end-close',
        name: 'Month-end close',
        description:
          'Works through the month-end close checklist, reconciles open items with the ledger and reports what still blocks the close.',
      },
    ],
    distinctive: [
      "Machine-to-machine access for internal agents registered in Brightwater's identity platform.",
      'https://login.brightwater-logistics.com/oauth2/v2.0/token',
      'Start workflows and read their status',
      'Approve or reject purchase requests',
    ],
  },
];

/** The templates' distinctive values, normalised (trimmed, lower case), to the templates that have each. */
interface DistinctiveIndex {
  readonly byValue: ReadonlyMap<string, readonly number[]>;
  readonly min: number;
  readonly max: number;
  /** By ASCII code, lower-cased: whether a distinctive value starts with it (blanks count: values are trimmed). */
  readonly starts: readonly boolean[];
}

let distinctiveIndex: DistinctiveIndex | undefined;

function distinctive(): DistinctiveIndex {
  if (distinctiveIndex) return distinctiveIndex;
  const byValue = new Map<string, number[]>();
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  TEMPLATE_FINGERPRINTS.forEach((fingerprint, t) => {
    for (const value of fingerprint.distinctive) {
      const key = value.toLowerCase();
      const list = byValue.get(key);
      if (list === undefined) byValue.set(key, [t]);
      else if (!list.includes(t)) list.push(t);
      min = Math.min(min, value.length);
      max = Math.max(max, value.length);
    }
  });
  const starts: boolean[] = Array.from({ length: 128 }, (_, c) => c <= 32);
  for (const key of byValue.keys()) if (key.charCodeAt(0) < 128) starts[key.charCodeAt(0)] = true;
  distinctiveIndex = { byValue, min, max, starts };
  return distinctiveIndex;
}

/**
 * Whether `value` may be one of the templates' distinctive values: a length and a first
 * character one of them has. Cheap, and true for every value {@link templatesWithValue} finds.
 */
export function mayBeDistinctive(value: string): boolean {
  const { min, max, starts } = distinctive();
  if (value.length < min || value.length > max + 64) return false;
  // Most strings start with a letter no distinctive value starts with: no copy made for them.
  const first = value.charCodeAt(0);
  return first >= 128 || starts[first | (first >= 65 && first <= 90 ? 32 : 0)] === true;
}

/** The templates (indexes into {@link TEMPLATE_FINGERPRINTS}) that have `value` as a distinctive value, compared trimmed and without case. */
export function templatesWithValue(value: string): readonly number[] | undefined {
  return mayBeDistinctive(value) ? distinctive().byValue.get(value.trim().toLowerCase()) : undefined;
}
