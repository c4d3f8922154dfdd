//! Which stored credentials the stored key can read.
//!
//! Every credential record names, in the clear, the id of the data key that sealed it, and the key record names the
//! id of the current data key. When the key record is deleted, or replaced by another (set up again, copied from
//! elsewhere), the credentials sealed under the old key can never be read again: they are *orphans*. They must not be
//! listed as if they were stored, and neither setting up nor unlocking may pass over them in silence: the way out is
//! to wipe them, which only the application can decide (after asking its user).

use super::error::{CredentialError, CredentialResult};

/// The stored key's id and, for each credential record, where it is and which key sealed it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Inventory {
    /// The id of the stored data key; `None` when there is no key record.
    pub(crate) current: Option<String>,
    /// `(server, name)` of each record, with the key id it names (`None` when the record is unreadable: not an
    /// orphan, but damaged, and reported as such when it is read).
    pub(crate) records: Vec<((String, String), Option<String>)>,
}

impl Inventory {
    /// The credentials the stored key can read, in stored order.
    pub(crate) fn readable(&self) -> impl Iterator<Item = &(String, String)> {
        self.records.iter().filter(|(_, key_id)| key_id.is_some() && *key_id == self.current).map(|(at, _)| at)
    }

    /// How many records were sealed under a key that is no longer stored.
    pub(crate) fn orphans(&self) -> usize {
        self.records
            .iter()
            .filter(|(_, key_id)| key_id.as_ref().is_some_and(|id| Some(id) != self.current.as_ref()))
            .count()
    }

    /// [`CredentialError::Orphaned`] when there are orphans.
    pub(crate) fn check(&self) -> CredentialResult<()> {
        match self.orphans() {
            0 => Ok(()),
            count => Err(CredentialError::Orphaned { count, key_record_missing: self.current.is_none() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inventory(current: Option<&str>, records: &[(&str, &str, Option<&str>)]) -> Inventory {
        Inventory {
            current: current.map(str::to_owned),
            records: records
                .iter()
                .map(|(server, name, key_id)| (((*server).to_owned(), (*name).to_owned()), key_id.map(str::to_owned)))
                .collect(),
        }
    }

    #[test]
    fn credentials_sealed_under_the_stored_key_are_readable() {
        let all = inventory(Some("k1"), &[("a", "X", Some("k1")), ("b", "Y", Some("k1")), ("c", "Z", None)]);
        let readable: Vec<_> = all.readable().map(|(s, n)| (s.as_str(), n.as_str())).collect();
        assert_eq!(readable, [("a", "X"), ("b", "Y")], "a damaged record is not listed as readable");
        assert_eq!(all.orphans(), 0, "nor counted as an orphan: it is reported when read");
        assert!(all.check().is_ok());
        assert!(Inventory::default().check().is_ok(), "nothing stored, no key: a fresh vault");
    }

    #[test]
    fn a_deleted_key_record_leaves_every_credential_an_orphan() {
        let deleted = inventory(None, &[("a", "X", Some("k1")), ("b", "Y", Some("k1"))]);
        assert_eq!(deleted.readable().count(), 0);
        let err = deleted.check().unwrap_err();
        assert_eq!(err, CredentialError::Orphaned { count: 2, key_record_missing: true });
        assert_eq!(err.code(), "ORPHANED_CREDENTIALS");
        assert!(err.to_string().contains("2 stored credentials") && err.to_string().contains("wipe"), "{err}");
    }

    #[test]
    fn a_replaced_key_record_orphans_what_the_old_key_sealed() {
        let replaced = inventory(Some("k2"), &[("a", "X", Some("k1")), ("a", "Y", Some("k2"))]);
        let readable: Vec<_> = replaced.readable().collect();
        assert_eq!(readable, [&("a".to_owned(), "Y".to_owned())]);
        let err = replaced.check().unwrap_err();
        assert_eq!(err, CredentialError::Orphaned { count: 1, key_record_missing: false });
        assert!(err.to_string().contains("replaced"), "{err}");
    }
}
