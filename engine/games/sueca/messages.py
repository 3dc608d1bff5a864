"""Sueca's sentences for people: refusal reasons and screen
prompts, in English, Romanian and Hungarian."""

from __future__ import annotations

from engine.errors import BadRequest, IllegalPlay
from engine.messages import CORE, Catalogue

MESSAGES = CORE | Catalogue({
    "denounce_off": {
        "en": "Revokes are refused at once in this game; there is nothing to denounce.",
        "ro": "În acest joc renunțul este refuzat pe loc; nu ai ce denunța.",
        "hu": "Ebben a játékban a színre nem adást azonnal elutasítja az asztal; nincs mit "
              "bejelenteni.",
    },
    "denounce_partner": {
        "en": "Seat {seat} cannot denounce seat {accused}: they are partners.",
        "ro": "Locul {seat} nu poate denunța locul {accused}: sunt parteneri.",
        "hu": "A(z) {seat}. hely nem jelentheti fel a(z) {accused}. helyet: partnerek.",
    },
    "no_revoke": {
        "en": "Seat {accused} has not revoked; the denounce by seat {seat} is refused.",
        "ro": "Locul {accused} nu a renunțat; denunțul locului {seat} este respins.",
        "hu": "A(z) {accused}. hely nem adott színre mást; a(z) {seat}. hely bejelentése "
              "elutasítva.",
    },
    "redeal_refused": {
        "en": "Seat {seat} has {points} points; a new deal needs {limit} or fewer.",
        "ro": "Locul {seat} are {points} puncte; pentru o nouă împărțire trebuie cel mult "
              "{limit}.",
        "hu": "A(z) {seat}. helynek {points} pontja van; újraosztáshoz legfeljebb {limit} kell.",
    },
    "sueca_show_hand": {
        "en": "Seat {seat}: tap your ten cards to claim a new deal.",
        "ro": "Locul {seat}: atinge cele zece cărți pentru a cere o nouă împărțire.",
        "hu": "{seat}. hely: érintsd a tíz lapodat az újraosztáshoz.",
    },
    "sueca_denounce_window": {
        "en": "Hand over: press OK to accept it, or denounce a revoke.",
        "ro": "Partida s-a terminat: apasă OK pentru a o accepta sau denunță un renunț.",
        "hu": "Vége a leosztásnak: OK az elfogadáshoz, vagy jelents be egy színre nem adást.",
    },
    "redeal_too_late": {
        "en": "Seat {seat}: a new deal can only be asked for before the first card is played.",
        "ro": "Locul {seat}: o nouă împărțire se poate cere doar înainte de prima carte jucată.",
        "hu": "{seat}. hely: újraosztást csak az első lap kijátszása előtt lehet kérni.",
    },
    "redeal_not_allowed": {
        "en": "Seat {seat} may not ask for a new deal under this game's options.",
        "ro": "Locul {seat} nu poate cere o nouă împărțire cu opțiunile acestui joc.",
        "hu": "A(z) {seat}. hely ezekkel a beállításokkal nem kérhet újraosztást.",
    },
    # ----- the rules of the refusals in one short line (`Catalogue.rule`) -----
    "denounce_off.rule": {
        "en": "Revokes are refused at once",
        "ro": "Renunțul e refuzat pe loc",
        "hu": "Az asztal azonnal elutasítja",
    },
    "denounce_partner.rule": {
        "en": "Seat {accused} is your partner",
        "ro": "Locul {accused} e partenerul tău",
        "hu": "A(z) {accused}. hely a társad",
    },
    "no_revoke.rule": {
        "en": "Seat {accused} did not revoke",
        "ro": "Locul {accused} n-a renunțat",
        "hu": "A(z) {accused}. hely nem hibázott",
    },
    "redeal_refused.rule": {
        "en": "{points} points: a new deal needs {limit} or fewer",
        "ro": "{points} puncte: reîmpărțire doar cu max. {limit}",
        "hu": "{points} pont: újraosztás legfeljebb {limit} ponttal",
    },
    "redeal_too_late.rule": {
        "en": "Too late: cards were played",
        "ro": "Prea târziu: s-a jucat deja",
        "hu": "Késő: már van kijátszott lap",
    },
    "redeal_not_allowed.rule": {
        "en": "No new deal in this game's options",
        "ro": "Fără împărțire nouă în acest joc",
        "hu": "Ebben a játékban nincs újraosztás",
    },
    "play_redeal": {"en": "New deal", "ro": "Împărțire nouă", "hu": "Újraosztás"},
    "play_denounce": {"en": "Denounce", "ro": "Denunț", "hu": "Bejelentés"},
    "sueca_denounce_window_accept": {"en": "Accept", "ro": "Accept", "hu": "Elfogad"},
    # what each choice does, in a line of the table's small screen
    "sueca_denounce_window_accept.help": {"en": "Accept: count the hand",
                                          "ro": "Accept: se numără", "hu": "Elfogad: számolás"},
    "sueca_denounce_window_denounce.help": {"en": "Denounce: name a revoke",
                                            "ro": "Denunț: arăți renunțul",
                                            "hu": "Bejelentés: hibát jelzel"},
    "sueca_denounce_window_denounce": {"en": "Denounce", "ro": "Denunț", "hu": "Bejelentés"},
})


class Refusal(IllegalPlay):
    """A play or choice the Sueca rules refuse (its sentence is in `MESSAGES`)."""

    catalogue = MESSAGES


class Bad(BadRequest):
    """A request that makes no sense in Sueca (its sentence is in `MESSAGES`)."""

    catalogue = MESSAGES
