// Polish. Sentences are impersonal ("Prosimy…", "można") rather than "Pan/Pani"; buttons use the
// customary short imperative ("Wyślij"). Placeholders match the English dictionary (../../i18n).
// Counts avoid noun agreement ("Wolne terminy: {count}") until the dictionary has plural forms.
import type { Strings } from '../../i18n';

const strings: Strings = {
  defaultTitle: 'Czat',
  defaultGreeting: 'Dzień dobry! W czym możemy pomóc?',
  launcherLabel: 'Czat: {title}',
  close: 'Zamknij',
  newConversation: 'Nowa rozmowa',
  sections: 'Sekcje',
  tabChat: 'Czat',
  tabBook: 'Rezerwacja',
  tabLookup: 'Moja rezerwacja',
  conversation: 'Rozmowa',
  you: 'Moja wiadomość:',
  agentSaid: '{title}:',
  typing: '{title} pisze…',
  messageLabel: 'Wiadomość',
  messagePlaceholder: 'Wpisz wiadomość…',
  send: 'Wyślij',
  sources: 'Źródła',
  jumpToNew: 'Nowe wiadomości',
  chatRetry: 'Ponów',
  chatOffline:
    'Nie wysłano: wygląda na to, że nie ma połączenia z internetem. Wiadomość zostanie wysłana ponownie po przywróceniu połączenia.',
  chatFailed: 'Coś poszło nie tak. Wiadomość nie została wysłana.',
  chatBusy: 'one: Mamy teraz duże obciążenie. Ponowna próba za {count} sekundę. | few: Mamy teraz duże obciążenie. Ponowna próba za {count} sekundy. | many: Mamy teraz duże obciążenie. Ponowna próba za {count} sekund. | other: Mamy teraz duże obciążenie. Ponowna próba za {count} sekundy.',
  chatBusyAnnounce: 'Mamy teraz duże obciążenie. Wiadomość zostanie automatycznie wysłana ponownie.',
  chatStillBusy: 'Nadal mamy duże obciążenie. Prosimy spróbować ponownie za chwilę.',
  chatUnavailable: 'Czat jest teraz niedostępny. Nadal można zarezerwować termin.',
  chatOpenBooking: 'Zarezerwuj termin',
  chatMisconfigured: 'Czat jest obecnie niedostępny w tej witrynie.',
  chatTooLong: 'Ta wiadomość jest za długa. Prosimy ją skrócić i wysłać ponownie.',
  chatEmpty: 'Prosimy najpierw wpisać wiadomość.',
  chatInvalid: 'Nie udało się wysłać tej wiadomości. Prosimy ją sprawdzić i spróbować ponownie.',

  bookHeading: 'Zarezerwuj termin',
  lookupHeading: 'Moja rezerwacja',
  loading: 'Wczytywanie…',
  back: 'Wstecz',
  next: 'Dalej',
  retry: 'Spróbuj ponownie',
  unavailable: 'Rezerwacja jest tu obecnie niedostępna. Prosimy zajrzeć później.',
  networkError: 'Nie udało się połączyć z systemem rezerwacji. Prosimy sprawdzić połączenie i spróbować ponownie.',
  serverError: 'Coś poszło nie tak. Prosimy spróbować ponownie.',
  busy: 'System rezerwacji jest teraz mocno obciążony. Prosimy spróbować ponownie za chwilę.',

  durationHeading: 'Ile czasu potrzeba?',
  dateHeading: 'Wybierz dzień',
  prevMonth: 'Poprzedni miesiąc',
  nextMonth: 'Następny miesiąc',
  // {from} and {to} are nominative ("kwiecień 2026"): "w {from}" would need the locative, so a label.
  jumped: '{from}: brak wolnych terminów. Pokazujemy {to} – pierwszy miesiąc z wolnymi terminami.',
  noneFree: 'Obecnie nie ma wolnych terminów do zarezerwowania.',
  dayLabel: '{date}, {status}',
  timesCount: 'one: {count} wolny termin | few: {count} wolne terminy | many: {count} wolnych terminów | other: {count} wolnego terminu',
  timesSome: 'są wolne terminy',
  timesNone: 'brak wolnych terminów',

  timeHeading: 'Wybierz godzinę',
  // {zone} is nominative ("czas środkowoeuropejski standardowy").
  timesIn: 'Strefa czasowa: {zone}',
  showIn: 'pokaż w strefie: {zone}',
  slotName: '{time}, {zone}',
  noSlots: 'W tym dniu nie ma już wolnych terminów. Prosimy wybrać inny dzień.',
  taken: 'Niestety termin {time} został właśnie zajęty. Najbliższe wolne terminy:',

  formHeading: 'Dane kontaktowe',
  optional: '(opcjonalnie)',
  required: 'Pole „{label}” jest wymagane.',
  invalidEmail: 'Prosimy podać adres e-mail w formacie nazwa@example.com.',

  reviewHeading: 'Sprawdź i potwierdź',
  duration: 'Czas trwania',
  confirm: 'Potwierdź rezerwację',
  confirming: 'Rezerwowanie…',

  doneHeading: 'Termin zarezerwowany',
  pendingHeading: 'Wysłano prośbę o rezerwację',
  code: 'Kod rezerwacji',
  status: 'Status',
  // Statuses of "rezerwacja" (feminine).
  confirmed: 'Potwierdzona',
  pending: 'Oczekuje na potwierdzenie',
  cancelled: 'Anulowana',
  google: 'Dodaj do Kalendarza Google',
  opensNewTab: '(otwiera się w nowej karcie)',
  // "z {who}" would need the instrumental of the business's name.
  eventTitle: '{what} – {who}',
  ics: 'Pobierz plik kalendarza (.ics)',
  icsDetails: 'Kod rezerwacji {code}',
  bookAnother: 'Zarezerwuj kolejny termin',

  codeHint: 'Ma postać BK-A1B2C3.',
  invalidCode: 'Prosimy wpisać kod w postaci BK-A1B2C3.',
  find: 'Znajdź rezerwację',
  notFound: 'Nie znaleźliśmy rezerwacji o tym kodzie.',
  rememberedHeading: 'Zapisane rezerwacje',
  cancelBooking: 'Anuluj rezerwację',
  cancelAsk: 'Anulować tę rezerwację?',
  cancelWarn: 'Tej operacji nie można cofnąć.',
  cancelYes: 'Tak, anuluj',
  keep: 'Zachowaj rezerwację',
  lookupAnother: 'Sprawdź inny kod',
};

export default strings;
