"""Agreement statistics: inter-rater reliability, judge versus humans, and the report.

Every public function is pure (numbers in, small result models out) and answers degenerate
data with `value=None` plus a reason instead of raising or returning NaN.
"""
