"""[[recipe]] entries: validated like gates (file:line:key, did-you-mean), frozen into Recipe."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate import config
from linkgate.cli import main
from linkgate.config import Recipe
from linkgate.errors import ConfigError

GATE = '[[gate]]\nname = "a"\ncargo = ["test", "--no-run"]\n\n'


@pytest.mark.parametrize(
    ("text", "line", "key", "needle"),
    [
        ('[[recipe]]\nname = "x"\nwhen-evn = ["A"]\n', 7, "recipe[0].when-evn", "did you mean 'when-env'"),
        ('[[recipe]]\nname = "x"\nwhen_target = "*"\n', 7, "recipe[0].when_target", "did you mean 'when-target'"),
        ('[[recipe]]\nwhen-env = ["A"]\n', 5, "recipe[0].name", "recipe has no name"),
        ('[[recipe]]\nname = "x"\nwhen-env = "A"\n', 7, "recipe[0].when-env", "expected a list of strings"),
        ('[[recipe]]\nname = "x"\nwhen-env = ["A"]\nline = "12"\n', 8, "recipe[0].line", "expected an integer"),
        ('[[recipe]]\nname = "x"\nwhen-env = ["A"]\nline = true\n', 8, "recipe[0].line", "expected an integer"),
        ('[[recipe]]\nname = "x"\nwhen-env = ["A"]\nfile = "b.rs"\nline = 0\n', 9, "recipe.x.line", "line number"),
        ('[[recipe]]\nname = "x"\nwhen-env = ["A"]\nline = 3\n', 8, "recipe.x.line", "a line needs a file"),
        ('[[recipe]]\nname = "x"\nfile = "build.rs"\n', 5, "recipe.x", "recipe has no condition"),
        ('[[recipe]]\nname = "x"\nwhen-target = " "\n', 7, "recipe.x.when-target", "must not be empty"),
        ('[[recipe]]\nname = "x"\nwhen-env = ["A"]\nunless-env = ["A"]\n', 8, "recipe.x.unless-env", "never be active"),
        ('[[recipe]]\nname = "x y"\nwhen-env = ["A"]\n', 6, "recipe[0].name", "must start with a letter"),
        ('[[recipe]]\nname = "x"\nwhen-env = ["A"]\n\n[[recipe]]\nname = "x"\nwhen-env = ["B"]\n', 10,
         "recipe[1].name", "duplicate recipe name 'x' (first defined at line 6)"),
        ('[[recipes]]\nname = "x"\n', 5, "recipes", "did you mean 'recipe'"),
    ],
)
def test_bad_recipe_names_file_line_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, key: str, needle: str
) -> None:
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text(GATE + text)
    with pytest.raises(ConfigError) as info:
        config.load(cfg)
    assert needle in info.value.render()
    assert (info.value.line, info.value.key) == (line, key), info.value.render()
    assert main(["coverage", "--config", str(cfg)]) == 2
    assert capsys.readouterr().err.startswith(f"linkgate: error: {cfg}:{line}: {key}: ")


def test_recipes_are_frozen_with_their_lines(tmp_path: Path) -> None:
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text(GATE + '[[recipe]]\nname = "dist"\nwhen-env = ["IREE_DIST", "MODE=release"]\n'
                   'file = "build.rs"\nline = 12\n\n[[recipe]]\nname = "mac"\nwhen-target = "*-apple-darwin"\n'
                   'unless-env = ["IREE_DIST"]\nwhen-features = ["metal"]\n')
    loaded = config.load(cfg)
    assert loaded.recipes == (
        Recipe(name="dist", when_env=("IREE_DIST", "MODE=release"), file="build.rs", line=12, config_line=5),
        Recipe(name="mac", when_target="*-apple-darwin", unless_env=("IREE_DIST",), when_features=("metal",),
               config_line=11),
    )
    assert loaded.recipes[0].location == "build.rs:12" and loaded.recipes[1].location is None


def test_recipes_in_cargo_toml_metadata_name_the_full_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\n\n'
        '[[package.metadata.linkgate.gate]]\nname = "g"\ncargo = ["build"]\n\n'
        '[[package.metadata.linkgate.recipe]]\nname = "r"\nwhen-feature = ["x"]\n'
    )
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        config.load()
    assert info.value.line == 11
    assert info.value.key == "package.metadata.linkgate.recipe[0].when-feature"
    assert "did you mean 'when-features'" in info.value.render()
