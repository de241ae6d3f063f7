public enum PhoneNumbersPlaceholder {}
