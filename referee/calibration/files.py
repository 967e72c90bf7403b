"""The calibration files: YAML that a person can read and edit, checked on load.

Every file names its ``kind`` (camera, table, layout), so handing a table file to the camera loader is
caught at once. A missing file, bad YAML or a wrong field is a ``CalibrationError`` that names the file,
the field and what was expected; nothing half-loaded is ever returned.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class CalibrationError(ValueError):
    """A missing, unreadable or malformed calibration file, or a calibration that cannot be made."""

    def __init__(self, where: str, message: str):
        self.where, self.message = where, message
        super().__init__(f"{where}: {message}" if where else message)


def _describe(err: ValidationError) -> str:
    parts = []
    for e in err.errors(include_url=False):
        loc = ".".join(str(p) for p in e["loc"]) or "(top level)"
        if e["type"] == "missing":
            parts.append(f"missing field '{loc}'")
        elif e["type"] == "extra_forbidden":
            parts.append(f"unexpected field '{loc}'")
        else:
            parts.append(f"'{loc}': {e['msg']} (got {e['input']!r})")
    return "; ".join(parts)


def read_yaml(path: str | Path, model: type[M], kind: str, hint: str = "") -> M:
    """Read ``path``, check it is a ``kind`` file and validate it with ``model``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError(str(path), f"no such {kind} calibration file" + (f"; {hint}" if hint else "")) from None
    except (OSError, UnicodeDecodeError) as e:
        raise CalibrationError(str(path), f"cannot read it: {e}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        raise CalibrationError(where, f"not valid YAML ({getattr(e, 'problem', None) or e})") from None
    if not isinstance(data, dict):
        raise CalibrationError(str(path), f"expected a YAML mapping of fields, got {type(data).__name__}")
    if data.get("kind") != kind:
        raise CalibrationError(str(path), f"expected 'kind: {kind}', got 'kind: {data.get('kind')}'")
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise CalibrationError(str(path), _describe(e)) from None


class _Dumper(yaml.SafeDumper):
    pass


def _list_repr(dumper: yaml.SafeDumper, data: list) -> Any:
    # Short lists of numbers (a point, a matrix row) on one line, so a matrix reads as a matrix.
    flow = all(isinstance(x, (int, float, str)) for x in data) and len(data) <= 16
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _list_repr)


def write_yaml(path: str | Path, data: dict, header: str) -> Path:
    """Write ``data`` as block YAML under a ``# header`` comment; create the folder when missing."""
    p = Path(path)
    body = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)
    comment = "".join(f"# {line}\n".replace("# \n", "#\n") for line in header.strip().splitlines())
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(comment + body, encoding="utf-8")
    except OSError as e:
        raise CalibrationError(str(path), f"cannot write it: {e.strerror or e}") from None
    return p


def floats(values, ndigits: int = 6) -> list:
    """Plain Python floats (rounded) from a numpy array, nested as it is, for YAML and JSON."""
    if hasattr(values, "tolist"):
        values = values.tolist()
    if isinstance(values, (list, tuple)):
        return [floats(v, ndigits) for v in values]
    return round(float(values), ndigits)
