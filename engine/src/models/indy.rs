//! The bootstrap methods javac emits for everyday code, the only `invokedynamic` call sites
//! the engine reads: string concatenation (`StringConcatFactory.makeConcatWithConstants`,
//! javac ≥ 9; its model is `concat`) and lambdas and method references
//! (`LambdaMetafactory.metafactory`/`altMetafactory`; the class path makes a class for each
//! site, `class/lambda.rs`). The class layer reads them through [`BOOTSTRAPS`].

use crate::class::indy::{BootstrapMethod, Bootstraps};

/// `java/lang/invoke/StringConcatFactory`.
pub const STRING_CONCAT_FACTORY: &str = "java/lang/invoke/StringConcatFactory";
/// `java/lang/invoke/LambdaMetafactory`.
pub const LAMBDA_METAFACTORY: &str = "java/lang/invoke/LambdaMetafactory";

/// The bootstrap methods the class layer reads.
pub static BOOTSTRAPS: Bootstraps = Bootstraps {
    concat_with_constants: BootstrapMethod {
        class: STRING_CONCAT_FACTORY,
        name: "makeConcatWithConstants",
    },
    metafactory: BootstrapMethod {
        class: LAMBDA_METAFACTORY,
        name: "metafactory",
    },
    alt_metafactory: BootstrapMethod {
        class: LAMBDA_METAFACTORY,
        name: "altMetafactory",
    },
};
