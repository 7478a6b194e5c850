#pragma once
// A non-owning reference to something callable, for visitors called in a query's inner loop: unlike
// std::function it never allocates (a lambda that captures more than two words made
// std::function allocate on every query, several times a step), and it costs one indirect call,
// like std::function, without making the query a template in its header.
#include <type_traits>
#include <utility>

namespace hydro {

template <typename Signature>
class FunctionRef;

template <typename Result, typename... Args>
class FunctionRef<Result(Args...)> {
 public:
  // The callable must outlive the reference (pass a lambda straight to the function that calls it).
  template <typename Callable, typename = std::enable_if_t<!std::is_same_v<std::decay_t<Callable>, FunctionRef>>>
  FunctionRef(Callable&& callable)  // NOLINT(runtime/explicit): converts like std::function
      : object_(const_cast<void*>(static_cast<const void*>(&callable))),
        call_([](void* object, Args... args) -> Result {
          return (*static_cast<std::remove_reference_t<Callable>*>(object))(std::forward<Args>(args)...);
        }) {}

  Result operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  Result (*call_)(void*, Args...);
};

}  // namespace hydro
