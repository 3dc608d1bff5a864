"""The controller's own message codes (refusals and prompts), in English,
Romanian and Hungarian: the table's catalogue (`TABLE`), joined to the game's
(`engine.registry.catalogue`) when the table renders a sentence."""

from __future__ import annotations

from engine.errors import IllegalPlay
from engine.messages import CORE, Catalogue

TEMPLATES: dict[str, dict[str, str]] = {
    "table_hand_full": {
        "en": "Seat {seat} already has its {count} cards.",
        "ro": "Locul {seat} are deja toate cele {count} cărți.",
        "hu": "A(z) {seat}. helynek már megvan mind a {count} lapja.",
    },
    "table_already_read": {
        "en": "The {card_name} was already read for seat {owner}.",
        "ro": "{card_name_cap} a fost deja citit pentru locul {owner}.",
        "hu": "{card_name_cap} már be lett olvasva a(z) {owner}. helynek.",
    },
    "table_unknown_uid": {
        "en": "Unknown card {uid}. To enroll it: admin tag, then Enroll.",
        "ro": "Carte necunoscută {uid}. Înregistrare: eticheta admin, apoi Înregistrare.",
        "hu": "Ismeretlen lap: {uid}. Felvétel: admin címke, majd Felvétel.",
    },
    "table_not_in_pack": {
        "en": "This card ({code}, pack {pack}) is not in this game's pack.",
        "ro": "Această carte ({code}, pachetul {pack}) nu este din pachetul jocului.",
        "hu": "Ez a lap ({code}, {pack}. pakli) nincs a játék paklijában.",
    },
    "table_already_enrolled": {
        "en": "This sticker is already the {card_name} of pack {pack}.",
        "ro": "Această etichetă este deja {card_name} din pachetul {pack}.",
        "hu": "Ez a matrica már a(z) {pack}. pakli lapja: {card_name}.",
    },
    "table_revoke": {
        "en": "Revoke! Seat {seat} showed no {suit_name} in trick {trick}, yet played one now.",
        "ro": "Renonț! Locul {seat} nu a avut {suit_name} la mâna {trick}, dar acum a jucat.",
        "hu": "Szabálytalan! A(z) {seat}. hely a(z) {trick}. ütésben nem adott {suit_name} "
              "lapot, most mégis tett.",
    },
    "table_no_match": {
        "en": "No match is running: press OK to start one.",
        "ro": "Nu se joacă niciun meci: apăsați OK pentru a începe.",
        "hu": "Nincs folyamatban mérkőzés: az OK gombbal indítható.",
    },
    "table_reader_offline": {
        "en": "The reader of seat {seat} does not answer.",
        "ro": "Cititorul locului {seat} nu răspunde.",
        "hu": "A(z) {seat}. hely olvasója nem válaszol.",
    },
    "table_member_sits": {
        "en": "{name} sits at seat {seat}.",
        "ro": "{name} stă pe locul {seat}.",
        "hu": "{name} a(z) {seat}. helyen ül.",
    },
    "table_member_left": {
        "en": "{name} left seat {seat}.",
        "ro": "{name} a părăsit locul {seat}.",
        "hu": "{name} elhagyta a(z) {seat}. helyet.",
    },
    "table_badge_between_matches": {
        "en": "The badge of {name}: players sit down between matches.",
        "ro": "Ecusonul lui {name}: jucătorii se așază între meciuri.",
        "hu": "{name} kártyája: a játékosok a mérkőzések között ülnek le.",
    },
    "table_badge_at_dealer": {
        "en": "The badge of {name}: tap it on the reader of a seat.",
        "ro": "Ecusonul lui {name}: atingeți-l de cititorul unui loc.",
        "hu": "{name} kártyája: egy hely olvasójára kell tenni.",
    },
    "table_badge_enrolled": {
        "en": "This badge is already member {number} ({name}).",
        "ro": "Acest ecuson este deja membrul {number} ({name}).",
        "hu": "Ez a kártya már a(z) {number}. tagé ({name}).",
    },
    # ----- the rules of the refusals in one short line (`Catalogue.rule`) -----
    "table_hand_full.rule": {
        "en": "Seat {seat} has all {count} cards",
        "ro": "Locul {seat} are toate cele {count}",
        "hu": "Megvan mind a {count} lap",
    },
    "table_already_read.rule": {
        "en": "The {card_short} was read for seat {owner}",
        "ro": "{card_short} e citit pentru locul {owner}",
        "hu": "{card_short} a(z) {owner}. helyé",
    },
    "table_unknown_uid.rule": {
        "en": "Unknown card: admin tag, then Enroll",
        "ro": "Carte necunoscută: admin, apoi Înregistrare",
        "hu": "Ismeretlen lap: admin címke, majd Felvétel",
    },
    "table_not_in_pack.rule": {
        "en": "{code}: not from this game's pack",
        "ro": "{code}: nu e din pachetul jocului",
        "hu": "{code}: nem a játék paklijából",
    },
    "table_already_enrolled.rule": {
        "en": "Already the {card_short} of pack {pack}",
        "ro": "Deja {card_short} din pachetul {pack}",
        "hu": "Már a(z) {pack}. pakli {card_short} lapja",
    },
    "table_revoke.rule": {
        "en": "Revoke: no {suit_sign} {suit_name} in trick {trick}",
        "ro": "Renonț: fără {suit_sign} {suit_name} la mâna {trick}",
        "hu": "Hiba: {trick}. ütésben nem adott {suit_sign} {suit_name}",
    },
    "table_no_match.rule": {
        "en": "No match: OK starts one",
        "ro": "Niciun meci: OK începe unul",
        "hu": "Nincs mérkőzés: OK indít",
    },
    "table_badge_between_matches.rule": {
        "en": "Sit down between matches",
        "ro": "Așezați-vă între meciuri",
        "hu": "Mérkőzések között ülj le",
    },
    "table_badge_at_dealer.rule": {
        "en": "Badge: on a seat's reader",
        "ro": "Ecusonul: pe cititorul unui loc",
        "hu": "Kártya: egy hely olvasójára",
    },
    "table_badge_enrolled.rule": {
        "en": "Already member {number}",
        "ro": "Deja membrul {number}",
        "hu": "Már a(z) {number}. tag",
    },
    "table_reader_offline.rule": {
        "en": "Reader of seat {seat} offline",
        "ro": "Cititorul locului {seat} nu merge",
        "hu": "A(z) {seat}. hely olvasója nem megy",
    },
}

#: The table's own codes.
TABLE = Catalogue(TEMPLATES)


class TableRefusal(IllegalPlay):
    """A card or action the table refuses for a reason of its own
    (`table_hand_full`, `table_already_read`, ...)."""

    catalogue = CORE | TABLE
