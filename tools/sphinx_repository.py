"""Links to the book's repository only when there is one: the URL comes from one setting.

The environment variable ``RANKEDU_REPOSITORY_URL`` (``https://github.com/<owner>/<name>``)
is the only place the repository's URL is given. It is a fact about where a copy of the book
is published, not about its source, so a fork that publishes the book sets it for its build
(``RANKEDU_REPOSITORY_URL=https://github.com/owner/name make book``) without editing a file,
and tests/test_site.py reads the same variable to know which buttons the site must have.

Unset (the default), the site links to no repository: no repository or issues button, no
Binder or Colab launch button, and the preface's Colab instruction, which installs the package
from the repository, is left out. Set, this extension turns those on: it fills Jupyter Book's
``repository.url`` (passed to sphinx-book-theme as ``repository_url``), enables the
repository and issues buttons, keeps the Binder and Colab providers of ``_config.yml``'s
``launch_buttons``, adds the Sphinx tag ``repository`` (so ``{only} repository`` blocks are
kept) and gives the ``rankedu-repository-code`` directive the URL to write into its block.

Jupyter Book 1.x fills an absent ``repository.url`` with its own default
(``https://github.com/executablebooks/jupyter-book``) and refuses ``use_repository_button``
without a URL, so ``_config.yml`` keeps ``url: ""`` and leaves the buttons to this extension;
a URL written there is an error, so that there stays one setting.
"""

import os
import re

from docutils import nodes
from sphinx.errors import ConfigError
from sphinx.util.docutils import SphinxDirective

ENV = "RANKEDU_REPOSITORY_URL"
TAG = "repository"
# Colab opens a notebook only from GitHub (colab.research.google.com/github/<owner>/<name>/…).
GITHUB_REPOSITORY = re.compile(r"https://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
# The launch providers that open the notebook from the repository.
LAUNCH_PROVIDERS = ("binderhub_url", "colab_url", "jupyterhub_url", "deepnote_url")


def repository_url() -> str:
    """The repository's URL as the environment gives it, without a trailing slash; "" if unset."""
    url = os.environ.get(ENV, "").strip().removesuffix("/").removesuffix(".git")
    if url and not GITHUB_REPOSITORY.fullmatch(url):
        raise ConfigError(f"{ENV}={url!r}: expected https://github.com/<owner>/<name>")
    return url


def _apply(app, config):
    theme = config.html_theme_options
    if theme.get("repository_url"):
        raise ConfigError(
            f"_config.yml sets repository.url to {theme['repository_url']!r}; leave it \"\" and "
            f"set the environment variable {ENV} instead (tools/sphinx_repository.py)"
        )
    url = repository_url()
    config.rankedu_repository_url = url
    theme["repository_url"] = url
    theme["use_repository_button"] = theme["use_issues_button"] = bool(url)
    if url:
        app.tags.add(TAG)
    else:
        launch = dict(theme.get("launch_buttons", {}))
        for provider in LAUNCH_PROVIDERS:
            launch[provider] = ""
        theme["launch_buttons"] = launch


class RepositoryCode(SphinxDirective):
    """A literal block whose ``{repository_url}`` is replaced by the repository's URL.

    It belongs inside ``{only} repository``: Sphinx parses that block's content whatever the
    tags and drops it later, so without a URL the directive gives nothing
    (tests/test_front_matter.py checks that every use of it is inside such a block).
    """

    has_content = True

    def run(self):
        url = self.config.rankedu_repository_url
        if not url:
            return []
        text = "\n".join(self.content).replace("{repository_url}", url)
        return [nodes.literal_block(text, text)]


def setup(app):
    # Not read from _config.yml: filled from the environment in config-inited.
    app.add_config_value("rankedu_repository_url", "", "env")
    # config-inited runs before the theme reads repository_url (builder-inited) and before
    # Sphinx compares the configuration with the last build's, so a change of URL rebuilds.
    app.connect("config-inited", _apply)
    app.add_directive("rankedu-repository-code", RepositoryCode)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
