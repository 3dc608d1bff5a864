"""The Filkó family's sentences for people: refusal reasons and screen
prompts, in English, Romanian and Hungarian."""

from __future__ import annotations

from engine.errors import BadRequest, IllegalPlay
from engine.messages import CORE, Catalogue

MESSAGES = CORE | Catalogue({
    "filko_not_a_choice": {
        "en": "'{choice}' is not one of the choices: {choices}.",
        "ro": "„{choice}” nu este una dintre variante: {choices}.",
        "hu": "„{choice}” nem választható; lehet: {choices}.",
    },
    "filko_bad_servant": {
        "en": "Seat {servant} cannot be the Servant: choose one of the losing team "
              "(seats {seats}).",
        "ro": "Locul {servant} nu poate fi Slugă: alegeți pe cineva din echipa care a pierdut "
              "(locurile {seats}).",
        "hu": "A(z) {servant}. hely nem lehet a Szolga: a vesztes csapatból válasszatok "
              "({seats}. hely).",
    },
    "filko_not_cut_card": {
        "en": "The {card_name} is not the next card of the cut: it must go to seat {owner}.",
        "ro": "{card_name_cap} nu este următoarea carte din tăietură: ea ajunge la locul {owner}.",
        "hu": "{card_name_cap} nem a vágás következő lapja: a(z) {owner}. helyre kerül.",
    },
    # ----- the rules of the refusals in one short line (`Catalogue.rule`) -----
    "filko_not_a_choice.rule": {
        "en": "Choose one of: {choices}",
        "ro": "Alege una dintre: {choices}",
        "hu": "Ezek közül válassz: {choices}",
    },
    "filko_bad_servant.rule": {
        "en": "Servant: seat {seats}",
        "ro": "Sluga: locul {seats}",
        "hu": "Szolga: {seats}. hely",
    },
    "filko_not_cut_card.rule": {
        "en": "The {card_short} goes to seat {owner}",
        "ro": "{card_short} merge la locul {owner}",
        "hu": "{card_short} a(z) {owner}. helyé",
    },
    "filko5_called_own.rule": {
        "en": "The Old Man holds the called card: undo",
        "ro": "Bătrânul are cartea chemată: anulați",
        "hu": "A hívott lap az Öregé: vonjátok vissza",
    },
    "filko5_call_own.rule": {
        "en": "Call a card you do not hold",
        "ro": "Cheamă o carte pe care n-o ai",
        "hu": "Olyan lapot hívj, ami nincs nálad",
    },
    "filko5_call_first.rule": {
        "en": "The Old Man (seat {seat}) calls first",
        "ro": "Întâi cheamă Bătrânul (locul {seat})",
        "hu": "Előbb az Öreg hív ({seat}. hely)",
    },
    "filko_show_cut": {
        "en": "Cutter: show the bottom card of the cut",
        "ro": "Cel care taie: arată cartea de jos a tăieturii",
        "hu": "Emelő: mutasd meg az emelés alsó lapját",
    },
    "filko_choose_servant": {
        "en": "Masters: choose the Servant",
        "ro": "Stăpânii: alegeți Sluga",
        "hu": "Urak: válasszátok ki a Szolgát",
    },
    "filko5_called_own": {
        "en": "Seat {seat} is the Old Man and may not hold the called {card_name}: "
              "undo back to the call and call again.",
        "ro": "Locul {seat} este Bătrânul și nu poate avea {card_name} chemat: "
              "anulați până la chemare și chemați din nou.",
        "hu": "A(z) {seat}. hely az Öreg, nem lehet nála a hívott {card_name}: "
              "vonjátok vissza a hívásig, és hívjon újra.",
    },
    "filko5_show_old_man": {
        "en": "Old Man: show your top Over",
        "ro": "Bătrânul: arată filcăul cel mare",
        "hu": "Öreg: mutasd meg a makk felsőt",
    },
    "filko5_name_trump": {
        "en": "Old Man: name trumps",
        "ro": "Bătrânul: alege atuul",
        "hu": "Öreg: mondj adut",
    },
    "filko5_call_card": {
        "en": "Old Man: call a card",
        "ro": "Bătrânul: cheamă o carte",
        "hu": "Öreg: hívj egy lapot",
    },
    "filko5_call_own": {
        "en": "The Old Man (seat {seat}) holds the {card_name}: he may not call his own card.",
        "ro": "Bătrânul (locul {seat}) are {card_name}: nu își poate chema propria carte.",
        "hu": "Az Öregnél (a(z) {seat}. hely) van {card_name}: a saját lapját nem hívhatja.",
    },
    "filko5_call_first": {
        "en": "The Old Man (seat {seat}) must call first.",
        "ro": "Bătrânul (locul {seat}) trebuie să cheme întâi.",
        "hu": "Először az Öreg (a(z) {seat}. hely) hív.",
    },
})


class Refusal(IllegalPlay):
    """A play or choice the Filkó rules refuse (its sentence is in `MESSAGES`)."""

    catalogue = MESSAGES


class Bad(BadRequest):
    """A request that makes no sense in a Filkó game (its sentence is in `MESSAGES`)."""

    catalogue = MESSAGES
