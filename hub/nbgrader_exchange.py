"""nbgrader's exchange on the class hub: its folders, and what the hub changes in nbgrader's own exchange.

nbgrader's permission model (``nbgrader/exchange/default``): the exchange is a folder everyone may write to; each
course folder belongs to the instructor, with ``outbound`` (0755: released assignments, readable by all) and
``inbound`` (2733: anyone may put a submission in, nobody but the instructor may list it, and what is put in gets
the instructor's group); each submission is named ``<student>+<assignment>+<time>+<random>``.

What the hub adds, in graded mode (one Unix account per student):

- **Sticky bits.** The exchange is 1777, as /tmp, and ``inbound`` 3733: nobody may rename or remove a folder there
  that is not theirs (without it, a student could replace a course's folders or another student's submission).
- **The hub makes the course folders** (both editions' courses) for the instructor's account when it starts, so no
  student can take a course's name first.
- **Each submission stays private** (``PrivateSubmit``): nbgrader leaves it world-writable (0777); here it is 0750,
  its group the instructor's (from ``inbound``), so another student who learnt its name can neither read it nor
  change a file in it.
- **The student is whoever owns the submission** (``OwnerCheckedCollect``): a submission whose folder does not
  belong to the Unix account of the student it names is not collected (nbgrader only warns). A student's server
  tells nbgrader the hub's name for the student, but only the owner check makes that name trustworthy.

In workshop mode (one account for everyone) any student could have written any submission, so collect and
autograde refuse to run (``WorkshopCollect``, ``refuse_autograde``).
"""

from __future__ import annotations

import os
import pwd
import sys
from pathlib import Path

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.submit import ExchangeSubmit
from traitlets import Bool, Unicode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accounts import private_folder, system_username  # noqa: E402

EXCHANGE_MODE = 0o1777
# nbgrader's own modes (release_assignment.py, release_feedback.py), with the sticky bit added to inbound.
COURSE_FOLDERS = {"": 0o755, "outbound": 0o755, "inbound": 0o3733, "feedback": 0o711}
WORKSHOP = ("this hub runs in workshop mode: every student's server runs as one shared Unix account, so any student could "
            "have written any submission. nbgrader's collect and autograde are switched off here; grade on a hub in graded "
            "mode (hub/README.md, \"Two modes\").")


def prepare(exchange: Path, course_ids, owner: pwd.struct_passwd) -> None:
    """The exchange (root's, 1777) and each course's folders (``owner``'s, nbgrader's modes), made by the hub as root."""
    exchange.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    private_folder(exchange, 0, 0, EXCHANGE_MODE)
    for course in course_ids:
        folder = exchange / course
        if folder.is_dir() and not folder.is_symlink() and folder.stat().st_uid not in (0, owner.pw_uid):
            raise RuntimeError(f"nbgrader's course folder {folder} must belong to the instructor's account {owner.pw_name}. "
                               f"Got one of uid {folder.stat().st_uid} instead: see who made it, then remove it.")
        for name, mode in COURSE_FOLDERS.items():
            private_folder(folder / name if name else folder, owner.pw_uid, owner.pw_gid, mode)


class PrivateSubmit(ExchangeSubmit):
    """nbgrader's submit, leaving the submission readable by its student and the instructor's group only."""

    def copy_files(self):
        super().copy_files()
        submission = os.path.join(self.inbound_path, self.assignment_filename)
        # 0750 needs the folder to carry the instructor's group, as inbound's set-group-ID bit gives it.
        ours = os.stat(submission).st_gid == os.stat(self.inbound_path).st_gid
        os.chmod(submission, 0o750 if ours else 0o755)


class OwnerCheckedCollect(ExchangeCollect):
    """nbgrader's collect, keeping only submissions whose folder belongs to the account of the student they name."""

    account_prefix = Unicode("jupyter-", help="The prefix of the students' Unix accounts (NDCG_HUB_ACCOUNT_PREFIX).").tag(config=True)
    check_owner = Bool(False, help="nbgrader's own check (a warning, by Unix name): replaced by the hub's.").tag(config=True)

    def _path_to_record(self, path):
        record = super()._path_to_record(path)
        account = system_username(self.account_prefix + record["username"])
        try:
            owner = pwd.getpwuid(os.stat(path).st_uid).pw_name
        except KeyError:
            owner = f"uid {os.stat(path).st_uid}"
        if owner != account:
            self.log.error("Not collected: %s names the student %s, whose account is %s, but it belongs to %s.",
                           record["filename"], record["username"], account, owner)
            record["username"] = None  # a group of its own, dropped below: the student's real submissions still count
        return record

    def init_src(self):
        super().init_src()
        self.src_records = [record for record in self.src_records if record["username"] is not None]


class WorkshopCollect(ExchangeCollect):
    """Collect, refused: in workshop mode a submission's name says nothing about who wrote it."""

    def start(self):
        self.fail(WORKSHOP)


def refuse_autograde(**_):
    """nbgrader's pre_convert_hook in workshop mode: autograde stops before the first submission.

    nbgrader logs an exception from the hook and grades on, so this exits instead: the command line stops with the
    message, and the formgrader (nbgrader's capture_log catches everything) reports it as a failure.
    """
    raise SystemExit(WORKSHOP)
