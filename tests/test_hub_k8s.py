"""hub/k8s/config.yaml, the Zero to JupyterHub values for a class beyond one machine, checked against the chart itself.

hub/k8s/chart/ holds the chart's (4.4.0) values.schema.json and default values.yaml; Helm validates the user's values
merged onto the defaults against that schema, and so does this test. No cluster runs here.
"""

import json
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "hub" / "k8s"
sys.path.insert(0, str(ROOT / "hub"))

import settings as hub_settings  # noqa: E402


@pytest.fixture(scope="module")
def values():
    return yaml.safe_load((K8S / "config.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def schema():
    return json.loads((K8S / "chart" / "values.schema.json").read_text(encoding="utf-8"))


def merged(defaults, values):
    """Helm's merge: maps merge key by key, anything else from the user's values replaces the default."""
    if isinstance(defaults, dict) and isinstance(values, dict):
        return {key: merged(defaults.get(key), values[key]) if key in values else defaults[key] for key in {*defaults, *values}}
    return values


def paths(node, prefix=()):
    """Every key path of ``node`` down to its leaves."""
    for key, value in node.items():
        yield (*prefix, key)
        if isinstance(value, dict):
            yield from paths(value, (*prefix, key))


@pytest.fixture(scope="module")
def defaults():
    return yaml.safe_load((K8S / "chart" / "values.yaml").read_text(encoding="utf-8"))


def test_the_values_merged_onto_the_charts_defaults_are_valid(values, schema, defaults):
    validator = jsonschema.Draft7Validator(schema)
    assert [error.message for error in validator.iter_errors(defaults)] == []
    assert [error.message for error in validator.iter_errors(merged(defaults, values))] == []


@pytest.mark.parametrize(("section", "key", "value"), [("singleuser", "defaultURL", "/lab"), ("cull", "timeout", "1h")])
def test_the_check_refuses_an_unknown_key_or_a_wrong_type(values, schema, defaults, section, key, value):
    wrong = {**values, section: {**values[section], key: value}}
    errors = [error.message for error in jsonschema.Draft7Validator(schema).iter_errors(merged(defaults, wrong))]
    assert errors and any(key in message or repr(value) in message for message in errors)


def test_every_key_is_one_the_chart_documents(values, schema):
    """Each key path resolves through the schema's named properties; under hub.config only class names pass through."""
    for path in paths(values):
        node = schema
        for depth, key in enumerate(path):
            if path[:2] == ("hub", "config") and depth >= 2:
                assert depth > 2 or key[0].isupper(), path  # traitlets classes, checked against JupyterHub in test_hub_live
                break
            assert key in node.get("properties", {}), f"{'.'.join(path)} is not in the chart's schema"
            node = node["properties"][key]


def test_students_get_the_course_by_nbgitpuller_as_on_the_single_machine_hub(values):
    assert values["singleuser"]["defaultUrl"] == hub_settings.read({}).pull_path()
    assert values["singleuser"]["image"]["name"] and isinstance(values["singleuser"]["image"]["tag"], str)
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"] == "firstuse"
    assert values["hub"]["config"]["FirstUseAuthenticator"]["create_users"] is False
    assert values["cull"]["enabled"] is True


def test_the_values_state_the_isolation_they_give_and_never_run_a_server_as_root(values):
    singleuser = values["singleuser"]
    assert singleuser["uid"] == 1000 and singleuser["fsGid"] == 100 and singleuser["allowPrivilegeEscalation"] is False
    assert singleuser["networkPolicy"]["enabled"] is True
    text = (K8S / "config.yaml").read_text(encoding="utf-8")
    assert "# Isolation on Kubernetes:" in text and "NOT isolated: nbgrader's" in text
    readme = (ROOT / "hub" / "README.md").read_text(encoding="utf-8")
    assert "**Isolation on Kubernetes:**" in readme
