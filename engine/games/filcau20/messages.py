"""20-card Filcău's sentences for people: refusal reasons and screen prompts
(en/ro/hu)."""

from __future__ import annotations

from engine.errors import BadRequest, IllegalPlay
from engine.messages import CORE, Catalogue

_TEXTS: dict[str, dict[str, str]] = {
    # ----- refusals: the fris ---------------------------------------------------------
    "fris_needs_over": {
        "en": "Seat {seat}: fris is made with an Over, not the {card_name}.",
        "ro": "Locul {seat}: fris se face cu un filcău, nu cu {card_name}.",
        "hu": "{seat}. hely: frist felsővel lehet mondani, nem ezzel: {card_name}.",
    },
    "fris_not_dealt": {
        "en": "Seat {seat}: the {card_name} is not among your first three cards.",
        "ro": "Locul {seat}: {card_name} nu este printre primele tale trei cărți.",
        "hu": "{seat}. hely: {card_name} nincs az első három lapod között.",
    },
    "fris_no_over": {
        "en": "Seat {seat}: no Over may be played on the fris Over.",
        "ro": "Locul {seat}: este interzis a da cu filcău peste filcăul de fris.",
        "hu": "{seat}. hely: a fris felsőre nem lehet felsőt tenni.",
    },
    "fris_small_card": {
        "en": "Seat {seat}: on the fris, play a small card (Under or King).",
        "ro": "Locul {seat}: pe fris se dă carte mică (valet sau cal).",
        "hu": "{seat}. hely: a frisre kis lapot (alsót vagy királyt) kell tenni.",
    },
    "fris_turn_first": {
        "en": "Seat {seat}: a Ten or an Ace on the fris only after your other two cards "
              "are turned face up.",
        "ro": "Locul {seat}: zecică sau tuz pe fris doar după ce ți se întorc pe față "
              "celelalte două cărți.",
        "hu": "{seat}. hely: tízest vagy ászt a frisre csak a másik két lapod felfordítása "
              "után lehet tenni.",
    },
    "fris_lead_over": {
        "en": "Seat {seat}: the fris trick is led with the fris Over.",
        "ro": "Locul {seat}: prima mână se deschide cu filcăul de fris.",
        "hu": "{seat}. hely: az első ütést a fris felsővel kell hívni.",
    },
    "only_dealer": {
        "en": "Only the dealer (seat {turn}) may deal the remaining cards.",
        "ro": "Doar dealerul (locul {turn}) poate împărți restul cărților.",
        "hu": "Csak az osztó ({turn}. hely) oszthatja ki a többi lapot.",
    },
    # ----- refusals: the binding ------------------------------------------------------
    "binding_not_eligible": {
        "en": "Seat {seat} cannot bind {call}: it takes an Over and three or four trumps "
              "(four not with an Ace as the farbă).",
        "ro": "Locul {seat} nu poate lega {call}: trebuie un filcău și trei sau patru "
              "tromfi (patru nu cu farbă tuz).",
        "hu": "A(z) {seat}. hely nem köthet {call}: felső és három vagy négy adu kell "
              "(négy nem ász mellékszínnel).",
    },
    "binding_rule7": {
        "en": "Seat {seat}: rule 7, you must bind your highest binding, not {call}.",
        "ro": "Locul {seat}: regula 7, trebuie să legi cel mai mare tromf, nu {call}.",
        "hu": "{seat}. hely: 7. szabály, a legnagyobb kötésedet kell kötnöd, nem ezt: {call}.",
    },
    "must_bind": {
        "en": "Seat {seat} can bind and must bind.",
        "ro": "Locul {seat} poate lega și trebuie să lege.",
        "hu": "A(z) {seat}. hely köthet, tehát kötnie kell.",
    },
    "binding_closed": {
        "en": "Seat {seat} has five trumps and must say closed (închis).",
        "ro": "Locul {seat} are cinci tromfi și trebuie să spună „închis”.",
        "hu": "A(z) {seat}. helynek öt adúja van, és be kell mondania: zárva (închis).",
    },
    "binding_not_closed": {
        "en": "Seat {seat} does not hold five trumps of any suit.",
        "ro": "Locul {seat} nu are cinci tromfi în nicio culoare.",
        "hu": "A(z) {seat}. helynek egyik színben sincs öt adúja.",
    },
    "binding_suit": {
        "en": "Seat {seat}: {suit_name} is not a suit your binding names.",
        "ro": "Locul {seat}: {suit_name} nu este culoarea legării tale.",
        "hu": "{seat}. hely: {suit_name} nem a kötésed színe.",
    },
    "rule8_farba": {
        "en": "Seat {seat}: rule 8, you bound three and won the first trick, so lead a "
              "non-trump (farbă).",
        "ro": "Locul {seat}: regula 8, ai legat trei și ai dus prima mână, deci dai jos "
              "cu farbă.",
        "hu": "{seat}. hely: 8. szabály, hármat kötöttél és elvitted az első ütést, ezért "
              "nem adut kell hívnod.",
    },
    # ----- the rules of the refusals in one short line (`Catalogue.rule`) -------------
    "fris_needs_over.rule": {
        "en": "Fris is made with an Over",
        "ro": "Fris se face cu un filcău",
        "hu": "Frist felsővel lehet mondani",
    },
    "fris_not_dealt.rule": {
        "en": "Fris: one of your first three cards",
        "ro": "Fris: una din primele trei cărți",
        "hu": "Fris: az első három lapod egyike",
    },
    "fris_no_over.rule": {
        "en": "No Over on the fris Over",
        "ro": "Nu da filcău peste fris",
        "hu": "Fris felsőre nem jár felső",
    },
    "fris_small_card.rule": {
        "en": "On the fris: an Under or a King",
        "ro": "Pe fris: valet sau cal",
        "hu": "A frisre: alsó vagy király",
    },
    "fris_turn_first.rule": {
        "en": "Turn your other two cards first",
        "ro": "Întâi întoarce celelalte două cărți",
        "hu": "Előbb fordítsd fel a másik kettőt",
    },
    "fris_lead_over.rule": {
        "en": "Lead the fris Over",
        "ro": "Deschide cu filcăul de fris",
        "hu": "A fris felsővel hívj",
    },
    "only_dealer.rule": {
        "en": "Only the dealer (seat {turn}) deals",
        "ro": "Doar dealerul (locul {turn}) împarte",
        "hu": "Csak az osztó ({turn}. hely) oszt",
    },
    "binding_not_eligible.rule": {
        "en": "To bind: an Over and 3 or 4 trumps",
        "ro": "Legi cu un filcău și 3 sau 4 tromfi",
        "hu": "Kötéshez felső és 3 vagy 4 adu kell",
    },
    "binding_rule7.rule": {
        "en": "Rule 7: bind your highest binding",
        "ro": "Regula 7: legi cel mai mare tromf",
        "hu": "7. szabály: a legnagyobbat kösd",
    },
    "must_bind.rule": {
        "en": "You can bind, so you must",
        "ro": "Poți lega, deci trebuie să legi",
        "hu": "Köthetsz, tehát kötnöd kell",
    },
    "binding_closed.rule": {
        "en": "Five trumps: say closed",
        "ro": "Cinci tromfi: spui „închis”",
        "hu": "Öt adu: mondd, hogy zárva",
    },
    "binding_not_closed.rule": {
        "en": "Closed needs five trumps",
        "ro": "„Închis” cere cinci tromfi",
        "hu": "A zárvához öt adu kell",
    },
    "binding_suit.rule": {
        "en": "Not your binding's suit: {suit_sign} {suit_name}",
        "ro": "Nu e culoarea legării: {suit_sign} {suit_name}",
        "hu": "Nem a kötésed színe: {suit_sign} {suit_name}",
    },
    "rule8_farba.rule": {
        "en": "Rule 8: lead a non-trump",
        "ro": "Regula 8: dai jos cu farbă",
        "hu": "8. szabály: ne adut hívj",
    },
    # ----- screen prompts -------------------------------------------------------------
    "filcau20_cut_or_knock": {
        "en": "Seat {seat}: cut or knock?",
        "ro": "Locul {seat}: tai sau bați?",
        "hu": "{seat}. hely: emelsz vagy kopogsz?",
    },
    "filcau20_fris": {
        "en": "Seat {seat}: put down an Over for fris, or pass.",
        "ro": "Locul {seat}: dai jos un filcău pentru fris sau treci.",
        "hu": "{seat}. hely: tegyél le felsőt a frishez, vagy passz.",
    },
    "filcau20_bind": {
        "en": "Seat {seat}: bind, pass, or say closed.",
        "ro": "Locul {seat}: legi, treci sau spui „închis”.",
        "hu": "{seat}. hely: kötés, passz vagy zárva.",
    },
    "filcau20_prove": {
        "en": "Seat {seat}: tap your five cards face down to prove your call.",
        "ro": "Locul {seat}: atinge cele cinci cărți cu fața în jos pentru a dovedi.",
        "hu": "{seat}. hely: érintsd le képpel lefelé az öt lapodat a bizonyításhoz.",
    },
    "filcau20_name_trump": {
        "en": "Seat {seat}: name trumps.",
        "ro": "Locul {seat}: alege tromful.",
        "hu": "{seat}. hely: mondj adut.",
    },
    "filcau20_fris_follow": {
        "en": "Seat {seat}: a small card on the fris (Under or King).",
        "ro": "Locul {seat}: carte mică pe fris (valet sau cal).",
        "hu": "{seat}. hely: kis lapot a frisre (alsó vagy király).",
    },
    "filcau20_show_turned": {
        "en": "Tap seat {seat}'s two other cards face up.",
        "ro": "Atinge pe față celelalte două cărți ale locului {seat}.",
        "hu": "Érintsd a(z) {seat}. hely másik két lapját képpel felfelé.",
    },
    "filcau20_rule8": {
        "en": "Seat {seat}: lead a non-trump (rule 8).",
        "ro": "Locul {seat}: dai jos cu farbă (regula 8).",
        "hu": "{seat}. hely: nem adut hívj (8. szabály).",
    },
}

#: Labels of the choices on the table's menu (`<prompt>_<word>`).
_LABELS: dict[str, tuple[str, str, str]] = {
    "filcau20_cut_or_knock_cut": ("Cut", "Tai", "Emel"),
    "filcau20_cut_or_knock_knock": ("Knock", "Bat", "Kopog"),
    "filcau20_fris_pass": ("Pass", "Trec", "Passz"),
    "filcau20_fris_deal": ("Deal the rest", "Împarte restul", "Oszd ki a többit"),
    "filcau20_bind_pass": ("Pass", "Trec", "Passz"),
    "filcau20_bind_closed": ("Closed", "Închis", "Zárva"),
    "filcau20_bind_bind": ("Bind", "Leg", "Kötök"),
    "filcau20_prove_withdraw": ("Withdraw", "Retrag", "Visszavonom"),
    "filcau20_fris_follow_turn": ("Turn my cards", "Întoarce-mi cărțile",
                                  "Fordítsd fel a lapjaimat"),
    "filcau20_name_trump_a": ("Acorns", "Ghindă", "Makk"),
    "filcau20_name_trump_l": ("Leaves", "Verde", "Zöld"),
    "filcau20_name_trump_h": ("Hearts", "Roșu", "Piros"),
    "filcau20_name_trump_b": ("Bells", "Dubă", "Tök"),
}

#: What each choice does, in a line of the table's small screen (`<label>.help`).
_HELP: dict[str, tuple[str, str, str]] = {
    "filcau20_cut_or_knock_cut": ("Cut: 3 cards, then fris", "Tai: 3 cărți, apoi fris",
                                  "Emel: 3 lap, majd fris"),
    "filcau20_cut_or_knock_knock": ("Knock: 5 cards at once", "Bați: 5 cărți deodată",
                                    "Kopog: 5 lap egyszerre"),
    "filcau20_fris_pass": ("Pass: no fris", "Treci: fără fris", "Passz: nincs fris"),
    "filcau20_fris_deal": ("Deal: 2 more cards each", "Împarte: încă 2 cărți",
                           "Oszd: még 2 lap"),
    "filcau20_bind_pass": ("Pass: you do not bind", "Treci: nu legi", "Passz: nem kötsz"),
    "filcau20_bind_closed": ("Closed: 5 trumps", "Închis: 5 tromfi", "Zárva: 5 adu"),
    "filcau20_bind_bind": ("Bind: claim the trumps", "Legi: ceri tromful", "Kötsz: adut kérsz"),
}

MESSAGES = CORE | Catalogue({
    **_TEXTS,
    **{key + ".help": {"en": en, "ro": ro, "hu": hu} for key, (en, ro, hu) in _HELP.items()},
    **{key: {"en": en, "ro": ro, "hu": hu} for key, (en, ro, hu) in _LABELS.items()},
})


class Refusal(IllegalPlay):
    """A play or choice the the 20-card Filcău rules refuse (its sentence is in `MESSAGES`)."""

    catalogue = MESSAGES


class Bad(BadRequest):
    """A request that makes no sense in the 20-card Filcău (its sentence is in `MESSAGES`)."""

    catalogue = MESSAGES

