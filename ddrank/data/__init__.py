"""Files shipped inside the package, read through `importlib.resources` so that an installed
wheel finds them from any directory, as a clone does.

* `sample/`: the bundled real hand records `ddrank run` reads by default (the 2012 world-class
  PBN, the 2021 online qualifier, a BBO vugraph LIN);
* `rankings/wbf-open-rankings.csv`: the ranking list names are matched against by default
  (UTF-8). It was taken from the paper's outputs (`data/paper/dds_final_results.csv`), whose
  scrape of the WBF site had turned each accented letter into a space ("J r me Rombaut"); the 17
  names so damaged are restored letter for letter (Jérôme Rombaut, Miklós Dumbovich, Paul O'Hara,
  ...), and `tests/test_names_accents.py` keeps them so;
* `estimator/evalset.parquet`: the small held-out set `ddrank dd-estimate eval` scores
  (made by `data/estimator/make_evalset.py`);
* `models/gbm-compact.*`: the learned double-dummy estimator `ddrank dd-estimate` uses by default.

Reference data that no command reads by default (the paper's outputs, the valet files, the DDS
test deals) stays in the repository's top-level `data/`.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def bundled(*parts: str) -> Path:
    """A shipped file or folder as a filesystem path (pip installs packages unzipped)."""
    return Path(str(files(__name__).joinpath(*parts)))


#: The folder holding every shipped file.
BUNDLED_DIR = bundled()
