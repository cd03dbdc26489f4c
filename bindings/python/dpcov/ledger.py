"""A privacy budget ledger (``dpcov/ledger.h``): releases charged against a total cap.

``BudgetAccountant(epsilon, delta)`` owns a ``dpcov_ledger``. Used as a context manager it is the
*active* accountant of the thread: every :func:`dpcov.release` and :func:`dpcov.release_gram` (so
every estimator of :mod:`dpcov.learn`) checks its plan against it before any noise is drawn,
raises :class:`~dpcov.PreconditionError` if the cap would be exceeded, and charges it after the
release, or after a failure that drew noise (:func:`charged_if_drawn`)::

    with dpcov.BudgetAccountant(epsilon=2.0, delta=1e-5) as budget:
        PrivateCovariance(epsilon=1.0, bound=B).fit(X)
        PrivateLinearRegression(epsilon=1.0, bound=B).fit(X, y)
        print(budget.spent)

Copies of an accountant are the accountant itself (``copy.deepcopy`` returns it), so estimators
cloned by a grid search or cross-validation charge the same budget: refitting a private estimator
per fold and candidate spends the budget each time, and the ledger refuses once it is gone.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import warnings
from ctypes import byref, c_double, c_void_p
from typing import NamedTuple

from ._generated import Accounting
from ._handle import Handle
from ._lib import C, LedgerSpentC, ReceiptC, _check, new_struct
from .errors import NumericalError, RefusedError, caller_stacklevel
from .rng import Rng
from .types import StructView


class ZcdpCharge(NamedTuple):
    """A release stated in zCDP: ``rho``-zCDP and (``epsilon``, ``delta``)-DP
    (``dpcov_ledger_charge_zcdp``). A zCDP ledger charges rho, basic and advanced ledgers
    (epsilon, delta). AdaSSP receipts and the CoinPress and Dong-Liang-Yi receipt dicts (their
    prefix's ``rho``, ``epsilon``, ``delta``) are charged as one."""

    rho: float
    epsilon: float
    delta: float


def _zcdp_statement(receipt) -> "ZcdpCharge | None":
    """The zCDP statement of a CoinPress or Dong-Liang-Yi receipt dict, or None for a receipt
    struct (charged through its common prefix)."""
    if isinstance(receipt, ZcdpCharge):
        return receipt
    if isinstance(receipt, dict):
        return ZcdpCharge(float(receipt["rho"]), float(receipt["epsilon"]),
                          float(receipt["delta"]))
    return None


class PrivacyLeakWarning(UserWarning):
    """A use of the library that spends privacy the caller may not expect (a refit, a default
    bound)."""


class LedgerSpent(StructView):
    """``dpcov_ledger_spent``: accounting, charges, epsilon, delta, rho, epsilon_cap, delta_cap."""

    __slots__ = ()


_active: contextvars.ContextVar = contextvars.ContextVar("dpcov_accountant", default=None)


def active_accountant() -> "BudgetAccountant | None":
    """The accountant of the innermost ``with BudgetAccountant(...)`` block, or None."""
    return _active.get()


def ledger_charge(epsilon: float, delta: float) -> ReceiptC:
    """A ``dpcov_receipt`` a ledger charges as one (epsilon, delta) release with no finer form:
    basic accounting adds it; zCDP accounting counts it when delta = 0 (pure, as the private
    bound's step) and refuses it otherwise (AdaSSP is charged by its plan, :func:`adassp_plan`,
    which states its zCDP rho)."""
    charge = new_struct(ReceiptC)
    charge.epsilon, charge.delta = epsilon, delta
    return charge


def bound_step_total(bound_epsilon: float, epsilon: float) -> float:
    """What a bound step of ``bound_epsilon`` and the release of ``epsilon`` that uses its bound
    spend together, charged as one release: their sum rounded up (``dpcov_bound_step_total``)."""
    total = c_double()
    _check(C.dpcov_bound_step_total(bound_epsilon, epsilon, byref(total)))
    return total.value


class _Steps:
    """A bound step and the release that uses it, which an advanced ledger takes as one release:
    the accountant, what it is charged (the two epsilons together), and how many of the two
    steps' charges have come (the first records it, the second nothing; releases after them are
    charged as usual)."""

    def __init__(self, budget, statement):
        self.budget, self.statement, self.charges = budget, statement, 0


# The release in steps under way in this thread, if any (release_in_steps).
_steps: contextvars.ContextVar = contextvars.ContextVar("dpcov_release_steps", default=None)


@contextlib.contextmanager
def release_in_steps(bound_epsilon: float, release, later=()):
    """Around a private bound of ``bound_epsilon`` (pure), then the release that uses it, whose
    plan is ``release``, then the releases planned in ``later`` (robust errors' meat): the
    active accountant is checked for all of them before any draws. Basic and zCDP ledgers are
    then charged each step as it draws. An advanced ledger, whose first charge fixes the
    per-release budget, takes the bound step and the release as one release, as the command
    line charges them: epsilon ``dpcov_bound_step_total`` of the two, the release's delta,
    recorded at the first charge of either (a draw, consumed even if the release then fails);
    their own checks and charges inside the block are that one, and the releases after them
    are checked and charged as usual. Nothing is charged if nothing is drawn."""
    budget = active_accountant()
    if budget is None:
        yield
        return
    bound_step = ledger_charge(bound_epsilon, 0.0)
    later = list(later)
    if budget.spent.accounting != Accounting.ADVANCED:
        budget.check_all([bound_step, release] + later)
        yield
        return
    stated = budget._statement(release)
    combined = new_struct(ReceiptC)
    combined.epsilon = bound_step_total(bound_epsilon, stated.epsilon)
    combined.delta = float(stated.delta)
    budget.check_all([combined] + later)
    token = _steps.set(_Steps(budget, combined))
    try:
        yield
    finally:
        _steps.reset(token)


class BudgetAccountant(Handle):
    """A privacy budget with a total cap (``dpcov_ledger``).

    Args:
        epsilon: total epsilon, finite and > 0.
        delta: total delta in [0, 1) (> 0 for zCDP accounting).
        accounting: ``"basic"`` (default), ``"zcdp"`` or ``"advanced"`` (Dwork-Rothblum-Vadhan
            advanced composition: the first release fixes the per-release budget, and so how
            many releases fit; ``dpcov/ledger.h``).
    """

    _destroy = staticmethod(C.dpcov_ledger_destroy)

    def __init__(self, epsilon: float, delta: float = 0.0, accounting="basic"):
        """Create the ledger (``dpcov_ledger_create``)."""
        if isinstance(accounting, str):
            accounting = Accounting[accounting.strip().upper()]
        handle = c_void_p()
        _check(C.dpcov_ledger_create(byref(handle), accounting, epsilon,
                                     delta))
        super().__init__(handle)
        self._tokens = []
        self._charged = []  # the receipts charged, to replay them in check_all

    @staticmethod
    def _statement(receipt):
        """What a charge reads: a :class:`ZcdpCharge` for a release stated in zCDP, else the
        ``dpcov_receipt`` struct of a :class:`~dpcov.Receipt` or of a struct."""
        zcdp = _zcdp_statement(receipt)
        if zcdp is not None:
            return zcdp
        if hasattr(receipt, "to_struct"):
            return copy.copy(receipt.to_struct())
        return copy.copy(getattr(receipt, "_struct", receipt))

    @staticmethod
    def _apply(handle, statement, charge: bool) -> None:
        """``dpcov_ledger_check_receipt`` / ``_charge_receipt`` on ``handle`` for a receipt
        struct of any family the library wrote (read through its common prefix),
        ``dpcov_ledger_check`` / ``_charge`` for a ``dpcov_receipt`` filled by hand (no privacy
        model), the ``_zcdp`` forms for a :class:`ZcdpCharge`."""
        if isinstance(statement, ZcdpCharge):
            fn = C.dpcov_ledger_charge_zcdp if charge else C.dpcov_ledger_check_zcdp
            _check(fn(handle, float(statement.rho), float(statement.epsilon),
                      float(statement.delta)))
        elif isinstance(statement, ReceiptC) and statement.privacy_model == 0:
            fn = C.dpcov_ledger_charge if charge else C.dpcov_ledger_check
            _check(fn(handle, byref(statement)))
        else:
            fn = C.dpcov_ledger_charge_receipt if charge else C.dpcov_ledger_check_receipt
            _check(fn(handle, byref(statement)))

    def _in_steps(self) -> "_Steps | None":
        """The bound step and release under way on this ledger as one release
        (:func:`release_in_steps`), until both have charged; else None."""
        steps = _steps.get()
        return steps if steps is not None and steps.budget is self and steps.charges < 2 \
            else None

    def check(self, receipt) -> None:
        """Raise :class:`~dpcov.PreconditionError` unless the release ``receipt`` describes fits
        in what is left; changes nothing. ``receipt``: a plan's or release's
        :class:`~dpcov.Receipt` (or ``dpcov_receipt``), an AdaSSP receipt or plan, a CoinPress or
        Dong-Liang-Yi receipt dict, or a :class:`ZcdpCharge`."""
        if self._in_steps() is not None:
            return  # checked as one release when the steps began
        self._apply(self, self._statement(receipt), charge=False)

    def check_all(self, receipts) -> None:
        """Raise as :meth:`check` unless the releases ``receipts`` describe fit one after the
        other (a release in steps, e.g. a private bound and then the release that uses it, is
        refused before the first step draws anything); changes nothing."""
        if self._in_steps() is not None:
            return
        s = self.spent
        scratch = c_void_p()
        _check(C.dpcov_ledger_create(byref(scratch), s.accounting, s.epsilon_cap, s.delta_cap))
        try:
            for r in self._charged + [self._statement(r) for r in receipts]:
                self._apply(scratch, r, charge=True)
        finally:
            C.dpcov_ledger_destroy(byref(scratch))

    def charge(self, receipt) -> None:
        """Record the release ``receipt`` describes (as for :meth:`check`); raises as
        :meth:`check`, leaving the ledger unchanged. Inside a release in steps that this ledger
        takes as one (:func:`release_in_steps`), the first step's charge records that one
        release and the second's nothing."""
        steps = self._in_steps()
        if steps is not None:
            if steps.charges == 0:
                self._apply(self, steps.statement, charge=True)
                self._charged.append(steps.statement)
            steps.charges += 1
            return
        statement = self._statement(receipt)
        self._apply(self, statement, charge=True)
        self._charged.append(statement)

    @property
    def spent(self) -> LedgerSpent:
        """What has been spent (``dpcov_ledger_get_spent``)."""
        out = new_struct(LedgerSpentC)
        _check(C.dpcov_ledger_get_spent(self, byref(out)))
        return LedgerSpent(out)

    def __enter__(self):
        """Make this the thread's active accountant for the ``with`` block."""
        self._tokens.append(_active.set(self))
        return self

    def __exit__(self, exc_type, exc, tb):
        """Restore the previous active accountant; the ledger stays open and readable."""
        _active.reset(self._tokens.pop())
        return False

    def __copy__(self):
        """An accountant is shared state: copies are the accountant itself."""
        return self

    def __deepcopy__(self, memo):
        """An accountant is shared state: copies are the accountant itself."""
        return self

    def __repr__(self):
        """The cap and what is spent."""
        s = self.spent
        return (f"BudgetAccountant(epsilon={s.epsilon_cap!r}, delta={s.delta_cap!r}, "
                f"accounting={Accounting(s.accounting).name.lower()!r}; spent epsilon "
                f"{s.epsilon!r}, delta {s.delta!r} in {s.charges} releases)")


def _generator_state(rng) -> "bytes | None":
    """The saved state of ``rng`` (``dpcov_rng_state_save``), or None for anything but an open
    :class:`~dpcov.Rng`."""
    if isinstance(rng, Rng) and not rng.closed:
        return rng.save_state()
    return None


@contextlib.contextmanager
def charged_if_drawn(budget, statement, rng):
    """Around a release whose plan ``budget`` (the active accountant, or None) has checked, and
    which draws its noise from ``rng``: a failure after the release's first draw is charged with
    ``statement`` (the plan) before it propagates, whatever the exception (an interrupt too).
    The draw is observed, not inferred: the generator's state is saved when the block begins and
    compared when it fails (every C entry point draws from the caller's generator itself and
    never rewinds it, and neither engine comes back to a state). The noise drawn is consumed and
    a refusal is an output of it: retrying until a release succeeds must spend the budget each
    time. A failure that left the generator as it was (a bad argument, found before any draw) is
    not charged, except a :class:`~dpcov.RefusedError` or :class:`~dpcov.NumericalError`: those
    only follow a draw, and are charged even without an advance as a second guard (a release
    that drew from a copy of the generator would not show one; an ``rng`` that is not a
    :class:`~dpcov.Rng` shows none). A release in steps is one block: a failure of a later step
    is charged after an earlier step's draw."""
    start = _generator_state(rng) if budget is not None else None
    try:
        yield
    except BaseException as e:  # a KeyboardInterrupt or SystemExit after a draw is charged too
        if budget is not None and (isinstance(e, (NumericalError, RefusedError))
                                   or (start is not None and _generator_state(rng) != start)):
            budget.charge(statement)
        raise


def warn_refit(estimator) -> None:
    """Warn that fitting ``estimator`` again spends its budget again."""
    warnings.warn(f"{type(estimator).__name__} is fitted again: each fit is a new private release "
                  "that spends its epsilon and delta again (cross-validation and grid search "
                  "spend them per fold and candidate); use a BudgetAccountant to cap the total",
                  PrivacyLeakWarning, stacklevel=caller_stacklevel())
