"""Given-name equivalences: diminutives and spelling variants seen in bridge records.

Each group lists names that may stand for one another ("Bobby Levin" in the ranking list is
"LEVIN Robert (Bobby)" in a valet file). A name can sit in several groups ("Chris").
Transliteration variants that a string ratio already scores highly (Georgi/Georgy) need no entry.
"""

from __future__ import annotations

_GROUPS: tuple[tuple[str, ...], ...] = (
    ("robert", "bob", "bobby", "rob", "robbie", "bert"),
    ("william", "bill", "billy", "will", "willie", "willy", "wim"),
    ("james", "jim", "jimmy", "jamie"),
    ("michael", "mike", "mick", "mickey", "micky", "mikael", "mikhail", "michal", "michel"),
    ("christopher", "chris", "kit", "christoph", "christophe"),
    ("christian", "chris", "christiaan"),
    ("christine", "chris", "christina", "kristina", "tina"),
    ("nicholas", "nick", "nicky", "nicolas", "nikolaos", "nikos", "nico", "klaus"),
    ("anthony", "tony", "antonio", "anton", "antoine"),
    ("jeffrey", "jeff", "geoffrey", "geoff", "jeffery"),
    ("stephen", "steve", "steven", "stefan", "stephan", "stevie"),
    ("david", "dave", "davey", "dawid"),
    ("daniel", "dan", "danny", "dani"),
    ("thomas", "tom", "tommy", "tomas", "tomasz"),
    ("joseph", "joe", "joey", "jose", "josef", "jozef", "giuseppe"),
    ("edward", "ed", "eddie", "eddy", "ted", "teddy"),
    ("frederick", "fred", "freddie", "frederic", "frederik", "fredrik", "federico"),
    ("gregory", "greg", "grzegorz", "gregor"),
    ("lawrence", "larry", "laurence", "lorenzo"),
    ("martin", "marty", "martijn", "marcin"),
    ("matthew", "matt", "matthias", "mathias", "matteo", "mateusz"),
    ("patrick", "pat", "paddy", "patryk"),
    ("peter", "pete", "piotr", "pierre", "pietro", "pedro", "petr"),
    ("richard", "rick", "ricky", "dick", "rich", "richie", "ricardo", "riccardo", "ricco"),
    ("ronald", "ron", "ronnie"),
    ("samuel", "sam", "sammy"),
    ("alexander", "alex", "sasha", "sascha", "sandy", "aleksander", "alexandre", "alessandro"),
    ("andrew", "andy", "andreas", "andrzej", "andre", "andrea", "andrei", "andrey"),
    ("benjamin", "ben", "benny"),
    ("charles", "charlie", "chuck", "chip", "carlos", "carlo", "karl", "karol"),
    ("catherine", "kate", "katie", "kathy", "cathy", "katherine", "kathrine", "katarzyna"),
    ("elizabeth", "liz", "beth", "betty", "eliza", "elisabeth", "elzbieta"),
    ("susan", "sue", "susie", "suzanne"),
    ("jennifer", "jenny", "jen"),
    ("judith", "judi", "judy"),
    ("margaret", "maggie", "meg", "peggy", "margareta"),
    ("wojciech", "wojtek"),
    ("paulo", "paulinho", "paul", "paolo", "pawel"),
    ("aristidis", "aris"),
    ("gerald", "jerry", "gerry"),
    ("jerome", "jerry"),
    ("leonard", "leo", "leonardo"),
    ("vladimir", "vlad", "volodymyr"),
    ("dmitri", "dmitry", "dmitrij", "dima", "dmytro"),
    ("yuri", "yury", "youri", "jurij", "jurijs", "juri"),
    ("georgi", "georgy", "georgios", "george", "jerzy", "jorge", "giorgio", "georg"),
    ("johannes", "johan", "john", "johnny", "jack", "jon", "juan", "giovanni", "joao"),
    ("ivan", "ivo", "iwan"),
    ("mark", "marc", "marco", "marcos", "marcus", "markus", "marek"),
    ("franciszek", "frank", "franky", "francis", "francesco", "franco", "francois", "franck"),
    ("zia", "ziaul"),
)


def _build() -> dict[str, frozenset[int]]:
    index: dict[str, set[int]] = {}
    for gid, group in enumerate(_GROUPS):
        for name in group:
            index.setdefault(name, set()).add(gid)
    return {name: frozenset(ids) for name, ids in index.items()}


NICKNAME_GROUPS: dict[str, frozenset[int]] = _build()


def same_given_name(a: str, b: str) -> bool:
    """True when two folded given names are known forms of one name."""
    if a == b:
        return True
    ga = NICKNAME_GROUPS.get(a)
    return bool(ga and ga & NICKNAME_GROUPS.get(b, frozenset()))
