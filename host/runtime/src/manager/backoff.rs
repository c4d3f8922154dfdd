//! How long to wait before restarting a failed server: exponential, bounded.

/// `initial_ms × factor^(attempt-1)`, at most `max_ms`. No jitter: each server has its own worker, so restarts do
/// not stampede a shared backend, and fixed delays keep the behaviour testable.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Backoff {
    /// The wait after the first failure.
    pub initial_ms: u32,
    /// The growth per further failure.
    pub factor: f64,
    /// The longest wait.
    pub max_ms: u32,
}

impl Default for Backoff {
    fn default() -> Self {
        Self { initial_ms: 1_000, factor: 2.0, max_ms: 30_000 }
    }
}

impl Backoff {
    /// A policy.
    pub fn new(initial_ms: u32, factor: f64, max_ms: u32) -> Self {
        Self { initial_ms, factor, max_ms }
    }

    /// The wait before the restart that follows failure number `failures` (1 for the first).
    pub fn delay_ms(&self, failures: u32) -> u32 {
        let exponent = failures.saturating_sub(1).min(64);
        let factor = if self.factor.is_finite() && self.factor >= 1.0 { self.factor } else { 1.0 };
        let delay = f64::from(self.initial_ms) * factor.powi(exponent as i32);
        if delay >= f64::from(self.max_ms) { self.max_ms } else { delay as u32 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_up_to_the_bound() {
        let backoff = Backoff::default();
        let delays: Vec<u32> = (1..=7).map(|n| backoff.delay_ms(n)).collect();
        assert_eq!(delays, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
        assert_eq!(backoff.delay_ms(u32::MAX), 30_000, "no overflow");
        assert_eq!(backoff.delay_ms(0), 1_000);
    }

    #[test]
    fn a_nonsensical_factor_means_a_constant_delay() {
        for factor in [0.5, f64::NAN, -2.0] {
            assert_eq!(Backoff::new(100, factor, 1_000).delay_ms(5), 100);
        }
    }
}
