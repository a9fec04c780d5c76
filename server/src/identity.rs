//! Guest identities: a display name and a secret token the browser keeps. The server stores
//! only the token's SHA-256, so a leaked database cannot be used to take anyone's seat.

use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::store::Store;
use pandemonium_game_contract::SeededChance;

/// A known person: their id and current display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub id: String,
    pub name: String,
}

/// 256 random bits from the operating system, as hex.
pub fn new_token() -> String {
    hex::encode(SeededChance::fresh_seed())
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Trims a display name and checks it is something people can read.
pub fn clean_name(name: &str) -> Result<String, AppError> {
    let name = crate::text::clean(name);
    let length = name.chars().count();
    if length == 0 || length > 32 {
        return Err(AppError::BadName);
    }
    Ok(name)
}

/// Creates a guest; returns the player and the token (shown to them once).
pub async fn create_guest(store: &Store, name: &str) -> Result<(Player, String), AppError> {
    let name = clean_name(name)?;
    let token = new_token();
    let id = uuid::Uuid::new_v4().to_string();
    store.insert_player(&id, &name, &hash_token(&token)).await?;
    Ok((Player { id, name }, token))
}

/// The guest a token belongs to.
pub async fn authenticate(store: &Store, token: &str) -> Result<Player, AppError> {
    if token.len() > 128 {
        return Err(AppError::UnknownToken);
    }
    match store.player_by_token_hash(&hash_token(token)).await? {
        Some((id, name)) => Ok(Player { id, name }),
        None => Err(AppError::UnknownToken),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_256_random_bits_and_are_never_stored_in_clear() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_ne!(hash_token(&a), a);
        assert_eq!(hash_token(&a), hash_token(&a));
    }

    #[test]
    fn names_are_trimmed_and_must_be_readable() {
        assert_eq!(clean_name("  Lilith ").unwrap(), "Lilith");
        assert!(clean_name("   ").is_err());
        assert!(clean_name(&"x".repeat(33)).is_err());
        assert_eq!(clean_name("a\u{0007}b").unwrap(), "ab");
    }

    #[test]
    fn a_name_of_nothing_readable_is_refused() {
        for blank in [
            "\u{0007} \u{0007}",
            "\u{202E}",
            "\u{2067}",
            "\u{200B}",
            "\u{FEFF}",
            "\u{200D}",
            "\u{0301}",
            "\u{FE0F}",
            "\u{E0041}",
        ] {
            assert!(clean_name(blank).is_err(), "{blank:?}");
        }
        assert_eq!(
            clean_name("\u{202E}evil").unwrap(),
            "evil",
            "the override goes, the name stays"
        );
    }
}
