"""Fildinsky's own reason codes and screen prompts, in English, Romanian and Hungarian."""

from __future__ import annotations

from engine.errors import BadRequest, IllegalPlay
from engine.messages import CORE, Catalogue

_TEXTS: dict[str, dict[str, str]] = {
    "meld_cards_missing": {
        "en": "Seat {seat} has no unused won cards for {meld}.",
        "ro": "Locul {seat} nu are cărți câștigate nefolosite pentru {meld}.",
        "hu": "A(z) {seat}. helynek nincs fel nem használt elvitt lapja ehhez: {meld}.",
    },
    "meld_needs_trick_card": {
        "en": "Seat {seat}: {meld} must contain a card of the trick just won.",
        "ro": "Locul {seat}: {meld} trebuie să conțină o carte din levata tocmai câștigată.",
        "hu": "A(z) {seat}. hely: a(z) {meld} bemondásban lennie kell egy lapnak "
              "az imént elvitt ütésből.",
    },
    "too_many_melds": {
        "en": "Seat {seat} may declare at most two melds after one trick.",
        "ro": "Locul {seat} poate anunța cel mult două combinații după o levată.",
        "hu": "A(z) {seat}. hely egy ütés után legfeljebb két bemondást tehet.",
    },
    "no_exchange": {
        "en": "Seat {seat} cannot exchange the Seven of trumps for the turned-up card now.",
        "ro": "Locul {seat} nu poate schimba acum șaptele de atu cu cartea întoarsă.",
        "hu": "A(z) {seat}. hely most nem cserélheti az adu hetest a felfordított lapra.",
    },
    "not_in_stock": {
        "en": "The {card_name} cannot be the card drawn from the stock.",
        "ro": "{card_name_cap} nu poate fi cartea trasă din talon.",
        "hu": "{card_name_cap} nem lehet a talonból húzott lap.",
    },
    "match_over": {
        "en": "The match is over.",
        "ro": "Meciul s-a terminat.",
        "hu": "A játszma véget ért.",
    },
    # ----- the rules of the refusals in one short line (`Catalogue.rule`) -----
    "meld_cards_missing.rule": {
        "en": "{meld}: needs unused won cards",
        "ro": "{meld}: trebuie cărți câștigate nefolosite",
        "hu": "{meld}: fel nem használt elvitt lap kell",
    },
    "meld_needs_trick_card.rule": {
        "en": "{meld}: use a card of this trick",
        "ro": "{meld}: cu o carte din această levată",
        "hu": "{meld}: ennek az ütésnek egy lapjával",
    },
    "too_many_melds.rule": {
        "en": "At most two melds a trick",
        "ro": "Cel mult două combinații pe levată",
        "hu": "Ütésenként legfeljebb két bemondás",
    },
    "no_exchange.rule": {
        "en": "No exchange of the Seven now",
        "ro": "Nu se poate schimba șaptele acum",
        "hu": "Most nincs hetes csere",
    },
    "not_in_stock.rule": {
        "en": "The {card_short} cannot come from the stock",
        "ro": "{card_short} nu poate veni din talon",
        "hu": "{card_short} nem jöhet a talonból",
    },
    "match_over.rule": {
        "en": "The match is over",
        "ro": "Meciul s-a terminat",
        "hu": "Vége a játszmának",
    },
    "fildinsky_show_turn_up": {
        "en": "Show the turned-up card",
        "ro": "Arătați cartea întoarsă",
        "hu": "Mutassa a felfordított lapot",
    },
    "fildinsky_declare": {
        "en": "Meld, exchange the Seven, or pass",
        "ro": "Anunțați, schimbați șaptele sau dați pas",
        "hu": "Bemondás, hetes csere vagy passz",
    },
    "fildinsky_draw": {
        "en": "Draw from the stock",
        "ro": "Trageți din talon",
        "hu": "Húzzon a talonból",
    },
}


_SUITS = {
    "c": ("clubs", "treflă", "treff"),
    "d": ("diamonds", "caro", "káró"),
    "h": ("hearts", "cupă", "kőr"),
    "s": ("spades", "pică", "pikk"),
}

# Labels of the choices on the table's menu (`<prompt>_<choice>`).
_CHOICES: dict[str, tuple[str, str, str]] = {
    "fildinsky_declare_sequence": ("Sequence +250", "Secvență +250", "Szekvencia +250"),
    "fildinsky_declare_royal_marriage": ("Royal marriage +40", "Mariaj regal +40",
                                         "Adu házasság +40"),
    "fildinsky_declare_four_aces": ("Four Aces +100", "Patru ași +100", "Négy ász +100"),
    "fildinsky_declare_four_kings": ("Four Kings +80", "Patru popi +80", "Négy király +80"),
    "fildinsky_declare_four_queens": ("Four Queens +60", "Patru dame +60", "Négy dáma +60"),
    "fildinsky_declare_four_jacks": ("Four Jacks +40", "Patru valeți +40", "Négy bubi +40"),
    "fildinsky_declare_bezique": ("Bézique +40", "Bezique +40", "Bézique +40"),
    "fildinsky_declare_double_bezique": ("Double bézique +500", "Bezique dublu +500",
                                         "Dupla bézique +500"),
    "fildinsky_declare_exchange": ("Exchange the Seven", "Schimbă șaptele", "Hetes csere"),
    "fildinsky_declare_pass": ("Pass", "Pas", "Passz"),
    "fildinsky_draw_unknown": ("Not shown", "Nearătată", "Nem mutatta"),
}
for _s, (_en, _ro, _hu) in _SUITS.items():
    _CHOICES[f"fildinsky_declare_marriage_{_s}"] = (
        f"Marriage in {_en} +20", f"Mariaj de {_ro} +20", f"{_hu.capitalize()} házasság +20")


#: What each choice does, in a line of the table's small screen (`<label>.help`).
_HELP: dict[str, tuple[str, str, str]] = {
    "fildinsky_declare_pass": ("Pass: no meld now", "Pas: fără anunț", "Passz: nincs bemondás"),
    "fildinsky_declare_exchange": ("Exchange: 7 for turn-up", "Schimbi 7 cu cea întoarsă",
                                   "Hetest a felfordítottra"),
    "fildinsky_draw_unknown": ("Not shown: stays hidden", "Nearătată: rămâne ascunsă",
                               "Nem mutatta: rejtve marad"),
}

MESSAGES = CORE | Catalogue({
    **_TEXTS,
    **{key + ".help": {"en": en, "ro": ro, "hu": hu} for key, (en, ro, hu) in _HELP.items()},
    **{key: {"en": en, "ro": ro, "hu": hu} for key, (en, ro, hu) in _CHOICES.items()},
})


class Refusal(IllegalPlay):
    """A play or choice the Fildinsky rules refuse (its sentence is in `MESSAGES`)."""

    catalogue = MESSAGES


class Bad(BadRequest):
    """A request that makes no sense in Fildinsky (its sentence is in `MESSAGES`)."""

    catalogue = MESSAGES

