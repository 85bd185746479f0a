"""Old keyword spellings that keep working for one release, with a DeprecationWarning."""

import functools
import warnings
from ..i18n import gettext


def renamed(**old_to_new):
    """Let a function still be called with the old keyword names it used to take.

    The wrapped function keeps its own signature (``inspect.signature`` shows
    the new names); an old name is passed on under its new one after a
    :class:`DeprecationWarning` that says what to write instead.
    """

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **keywords):
            for old, new in old_to_new.items():
                if old in keywords:
                    if new in keywords:
                        raise TypeError(gettext("{name}() got both {old}= and its new name {new}=; pass {new}= "
                                                "only.").format(name=function.__name__, old=old, new=new))
                    warnings.warn(
                        f"{function.__name__}({old}=...) is now spelled {new}=...; {old}= will stop working in the next release.",
                        DeprecationWarning,
                        stacklevel=2,
                    )
                    keywords[new] = keywords.pop(old)
            return function(*args, **keywords)

        return wrapper

    return decorate
