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

/// The wrapper class and its `valueOf` descriptor that a lambda class spun by
/// `LambdaMetafactory` boxes a primitive result of `prim` (a field descriptor: `I`, `J`, …)
/// with, where the interface method returns a reference (JDK 17
/// `TypeConvertingMethodAdapter.box`: `invokestatic Wrapper.valueOf`; so `Integer` results
/// are the cached boxes `Integer.valueOf` gives).
pub fn lambda_box(prim: &str) -> Option<(&'static str, &'static str)> {
    Some(match prim {
        "Z" => ("java/lang/Boolean", "(Z)Ljava/lang/Boolean;"),
        "B" => ("java/lang/Byte", "(B)Ljava/lang/Byte;"),
        "C" => ("java/lang/Character", "(C)Ljava/lang/Character;"),
        "S" => ("java/lang/Short", "(S)Ljava/lang/Short;"),
        "I" => (super::text::INTEGER, "(I)Ljava/lang/Integer;"),
        "J" => ("java/lang/Long", "(J)Ljava/lang/Long;"),
        "F" => ("java/lang/Float", "(F)Ljava/lang/Float;"),
        "D" => ("java/lang/Double", "(D)Ljava/lang/Double;"),
        _ => return None,
    })
}
