//! The handle registry: every object ktorch allocates lives here, and q holds only its id.
//!
//! q sees ktorch's pointer form, a one-element general list holding a long (`,12`), but the long
//! is an id looked up here, never an address: a freed, forged or wrong-class handle is an error,
//! never undefined behaviour. Ids are never reused, so a freed handle stays stale for good.
//! An object lent to an async call (`lend`, `give_back`) is out of the map and its id is busy: any
//! use of the handle is the error `<class> busy: ..` until the call's future is awaited or freed.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, TryLockError};

use anyhow::{anyhow, bail};
use once_cell::sync::Lazy;
use tch::Tensor;

use crate::k::{make, read, K};

/// A debug line in the log (through the hook the session installs: the registry sits below it).
macro_rules! debug {
    ($($arg:tt)+) => {{
        let log = crate::k::hooks::hooks();
        if (log.debugging)() {
            (log.debug)(&format!($($arg)+));
        }
    }};
}

/// What a handle can refer to: tensors, which every layer knows, or an object of a domain above
/// the registry (module, loss, optimizer, model, stream, event, graph, future) behind the
/// [`Object`] trait, so that the registry names no domain's type.
pub enum Obj {
    /// A tensor; possibly undefined (`tensor[]`), ktorch's placeholder.
    Tensor(Tensor),
    /// A vector (list) of tensors: ktorch's `vector`.
    Vector(Vec<Tensor>),
    /// A dictionary of tensors: ktorch's `dict`. Keys keep their insertion order.
    Dict(Vec<(String, Tensor)>),
    /// Every other class: a domain's object.
    Object(Box<dyn Object>),
}

/// ktorch's classes of object: what `class` answers for a handle, and what a function asks of
/// one (`class_of(x) == Some(Class::Model)`) in place of comparing class names as strings, so that
/// a misspelt class is a compile error rather than a test that is never true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Tensor,
    Vector,
    Dictionary,
    Module,
    Loss,
    Optimizer,
    Model,
    Stream,
    Event,
    Graph,
    Future,
}

impl Class {
    /// ktorch's name of the class: `tensor`, `module`, `model`, ...
    pub fn name(self) -> &'static str {
        match self {
            Class::Tensor => "tensor",
            Class::Vector => "vector",
            Class::Dictionary => "dictionary",
            Class::Module => "module",
            Class::Loss => "loss",
            Class::Optimizer => "optimizer",
            Class::Model => "model",
            Class::Stream => "stream",
            Class::Event => "event",
            Class::Graph => "graph",
            Class::Future => "future",
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the registry and the q functions over every class (`obj`, `free`, `tensorcount`,
/// `objtype`, `zerograd`, `async`) ask of a domain's object.
pub trait Object: Any + Send {
    /// ktorch's class: `Module`, `Loss`, `Optimizer`, `Model`, ...
    fn class(&self) -> Class;
    /// ktorch's `objtype`: the object's kind (a module's layer, an optimizer's or loss's name);
    /// its class's name when it has none.
    fn objtype(&self) -> &'static str {
        self.class().name()
    }
    /// The tensors it holds, in order (a module's parameters then buffers); none by default.
    fn tensors(&self) -> Vec<&Tensor> {
        vec![]
    }
    /// The tensors whose gradients `zerograd`/`nograd` reset (an optimizer's parameters).
    fn grad_tensors(&self) -> Vec<&Tensor> {
        self.tensors()
    }
    /// The number of each kind of tensor it holds, for `tensorcount` (parameters, buffers).
    fn counts(&self) -> Vec<i64> {
        vec![]
    }
    /// An object of type `t` that this one holds (a model's module, loss or optimizer): the
    /// domain functions that also take a model reach its part through this.
    fn part(&self, _t: TypeId) -> Option<&dyn Any> {
        None
    }
    fn part_mut(&mut self, _t: TypeId) -> Option<&mut dyn Any> {
        None
    }
    /// A second handle's object sharing this one (`addref`: a module); None where `addref` is
    /// not implemented.
    fn shared(&self) -> Option<Box<dyn Object>> {
        None
    }
    /// The address of the module tree it holds (objects lent together to an async call share it).
    fn root(&self) -> Option<*const ()> {
        None
    }
    /// Dropped by `free`: a future first waits for its call and gives back what it was lent.
    fn discard(self: Box<Self>) {}
}

impl Obj {
    /// A domain's object.
    pub fn new<T: Object>(x: T) -> Obj {
        Obj::Object(Box::new(x))
    }

    /// The object as a `T`, if it is one.
    pub fn get<T: Object>(&self) -> Option<&T> {
        match self {
            Obj::Object(b) => (&**b as &dyn Any).downcast_ref(),
            _ => None,
        }
    }

    pub fn get_mut<T: Object>(&mut self) -> Option<&mut T> {
        match self {
            Obj::Object(b) => (&mut **b as &mut dyn Any).downcast_mut(),
            _ => None,
        }
    }

    /// The object itself if it is a `T`, else it back.
    pub fn take<T: Object>(self) -> Result<T, Obj> {
        match self {
            Obj::Object(b) if (&*b as &dyn Any).is::<T>() => Ok(*(b as Box<dyn Any>)
                .downcast::<T>()
                .unwrap_or_else(|_| unreachable!())),
            o => Err(o),
        }
    }

    /// A `T`: the object itself, or the `T` it holds (a model's module, loss or optimizer).
    pub fn part<T: Object>(&self) -> Option<&T> {
        match self {
            Obj::Object(b) => match (&**b as &dyn Any).downcast_ref() {
                Some(t) => Some(t),
                None => b.part(TypeId::of::<T>()).and_then(|p| p.downcast_ref()),
            },
            _ => None,
        }
    }

    pub fn part_mut<T: Object>(&mut self) -> Option<&mut T> {
        match self {
            Obj::Object(b) => {
                if (&**b as &dyn Any).is::<T>() {
                    return (&mut **b as &mut dyn Any).downcast_mut();
                }
                b.part_mut(TypeId::of::<T>()).and_then(|p| p.downcast_mut())
            }
            _ => None,
        }
    }

    pub fn class(&self) -> Class {
        match self {
            Obj::Tensor(_) => Class::Tensor,
            Obj::Vector(_) => Class::Vector,
            Obj::Dict(_) => Class::Dictionary,
            Obj::Object(o) => o.class(),
        }
    }

    /// The tensors an object holds, in order (one for a tensor, the parameters then buffers of a
    /// module).
    pub fn tensors(&self) -> Vec<&Tensor> {
        match self {
            Obj::Tensor(t) => vec![t],
            Obj::Vector(v) => v.iter().collect(),
            Obj::Dict(d) => d.iter().map(|(_, t)| t).collect(),
            Obj::Object(o) => o.tensors(),
        }
    }

    /// The keys of a dictionary (None for other classes).
    pub fn keys(&self) -> Option<Vec<&str>> {
        match self {
            Obj::Dict(d) => Some(d.iter().map(|(k, _)| k.as_str()).collect()),
            _ => None,
        }
    }
}

/// The hash of an id for the map of live objects: ids are consecutive longs, so one multiply by
/// an odd constant spreads them over the table (std's default SipHash cost more than the lookup
/// on the per-call path: every new tensor is inserted and every freed one removed).
#[derive(Default)]
struct IdHash(u64);

impl Hasher for IdHash {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ *b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_i64(&mut self, i: i64) {
        self.0 = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

struct Registry {
    next: i64,
    /// Live objects by id. A hash map (no order): what lists or visits them sorts by id.
    objs: HashMap<i64, Obj, BuildHasherDefault<IdHash>>,
    /// Handles whose objects are lent to an async call (taken out of `objs`), with their class:
    /// every use of them is an error until the call's future is awaited or freed.
    busy: BTreeMap<i64, Class>,
    /// ktorch's `objtype` of dictionaries made by `parms` (`parameter) and `buffers` (`buffer);
    /// other objects answer from their content. Ids are never reused, so a freed id's tag is
    /// never read again.
    tags: BTreeMap<i64, &'static str>,
}

impl Registry {
    /// The error for a handle that is not in `objs`: busy or stale.
    fn missing(&self, id: i64) -> anyhow::Error {
        match self.busy.get(&id) {
            Some(c) => anyhow!("{c} busy: an async call is running on it (await it first)"),
            None => anyhow!("stale pointer"),
        }
    }
}

static REGISTRY: Lazy<Mutex<Registry>> = Lazy::new(|| {
    Mutex::new(Registry {
        next: 1,
        objs: HashMap::default(),
        busy: BTreeMap::new(),
        tags: BTreeMap::new(),
    })
});

/// The thread holding the registry's lock (its `pthread_self`), 0 when none. std's Mutex is not
/// re-entrant: code that reached the registry again while inside `with` (an error message naming
/// another handle's class, say) waited for itself forever. It fails instead (see `lock`). Only
/// the holder writes its own id here, and clears it before unlocking, so a thread reads its own
/// id exactly while it holds the lock. (An atomic rather than a thread-local: a thread-local in
/// a shared library costs a `__tls_get_addr` call per access, three per lock.)
static OWNER: AtomicUsize = AtomicUsize::new(0);

fn this_thread() -> usize {
    crate::k::thread::pthread_id()
}

/// The registry, locked for the life of this value.
struct Locked(std::sync::MutexGuard<'static, Registry>);

impl std::ops::Deref for Locked {
    type Target = Registry;
    fn deref(&self) -> &Registry {
        &self.0
    }
}
impl std::ops::DerefMut for Locked {
    fn deref_mut(&mut self) -> &mut Registry {
        &mut self.0
    }
}
impl Drop for Locked {
    fn drop(&mut self) {
        // before the guard (the field) unlocks
        OWNER.store(0, Ordering::Relaxed);
    }
}

fn lock() -> Locked {
    // A panic while holding the lock leaves the map consistent (no partial updates), so recover.
    let g = match REGISTRY.try_lock() {
        Ok(g) => g,
        Err(TryLockError::Poisoned(e)) => e.into_inner(),
        Err(TryLockError::WouldBlock) => {
            // Held by this thread, a second lock would deadlock: panic instead, which the guard
            // turns into a q error (the fuzzer found `xnormal(dict;future)` hanging this way).
            if in_use_here() {
                panic!("internal error: the object registry was re-entered while in use");
            }
            REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
        }
    };
    OWNER.store(this_thread(), Ordering::Relaxed);
    Locked(g)
}

/// Is the registry locked by this thread (inside `with`)? Then it cannot be asked again.
pub fn in_use_here() -> bool {
    OWNER.load(Ordering::Relaxed) == this_thread()
}

/// Store `obj`; returns its q handle.
pub fn add(obj: Obj) -> K {
    let class = obj.class();
    let id = {
        let mut r = lock();
        let id = r.next;
        r.next += 1;
        r.objs.insert(id, obj);
        id
    };
    debug!("made {class} {id}");
    handle(id)
}

/// `add`, recording the object's `objtype` (`parms`' dictionary is a `parameter one).
pub fn add_as(obj: Obj, objtype: &'static str) -> K {
    let h = add(obj);
    if let Some(id) = id_of(h) {
        lock().tags.insert(id, objtype);
    }
    h
}

/// The `objtype` recorded by `add_as`, if any.
pub fn objtype_tag(x: K) -> Option<&'static str> {
    id_of(x).and_then(|id| lock().tags.get(&id).copied())
}

/// The q form of a handle: `enlist id` (made in place: no Vec on this path, every new object
/// passes here).
pub fn handle(id: i64) -> K {
    make::enlist(make::long(id))
}

/// The hot path of a tensor op on two tensor handles (`add(x;y)`): `f` runs on the two
/// tensors as the registry holds them and its result is stored as a new tensor, all under one
/// lock: no shallow copies of the inputs (each one a C++ allocation and a refcount), one lock
/// where reading two handles and storing the result took three. The op runs with the lock
/// held, as any `with` body does: `f` is one libtorch call, which calls neither q nor ktorch
/// back. None when `x` or `y` is not a live tensor handle: the caller's general path then
/// reads the arguments and gives their errors.
pub fn tensor_pair(
    x: K,
    y: K,
    f: impl FnOnce(&Tensor, &Tensor) -> anyhow::Result<Tensor>,
) -> Option<anyhow::Result<K>> {
    let (i, j) = (id_of(x)?, id_of(y)?);
    let id = {
        let mut r = lock();
        let (a, b) = match (r.objs.get(&i), r.objs.get(&j)) {
            (Some(Obj::Tensor(a)), Some(Obj::Tensor(b))) => (a, b),
            _ => return None,
        };
        // as `with`: a tensor left larger than its storage is an error, not memory a kernel reads
        if let Err(e) = usable_tensor(a).and_then(|_| usable_tensor(b)) {
            return Some(Err(e));
        }
        let t = match f(a, b) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        let id = r.next;
        r.next += 1;
        r.objs.insert(id, Obj::Tensor(t));
        id
    };
    debug!("made tensor {id}");
    Some(Ok(handle(id)))
}

/// The id in `x` if `x` has the handle form (a one-element general list holding a long).
pub fn id_of(x: K) -> Option<i64> {
    crate::k::from::handle_id(x)
}

/// Does `x` look like a handle (whether or not it is live)?
pub fn is_handle(x: K) -> bool {
    id_of(x).is_some()
}

/// Run `f` on the live object of handle `x`, or fail with ktorch's 'stale pointer'.
pub fn with<R>(x: K, f: impl FnOnce(&mut Obj) -> anyhow::Result<R>) -> anyhow::Result<R> {
    let id = id_of(x).ok_or_else(|| anyhow!("not a ktorch handle"))?;
    let mut r = lock();
    if !r.objs.contains_key(&id) {
        return Err(r.missing(id));
    }
    let o = r.objs.get_mut(&id).unwrap();
    usable(o)?;
    f(o)
}

/// A tensor whose shape no longer lies within its storage is an error on every use, not memory
/// a kernel writes past: ATen's resize of an out= tensor sets the new sizes before allocating,
/// so one that failed (no memory) leaves them over the old storage. `free` still takes it.
fn usable(o: &Obj) -> anyhow::Result<()> {
    match o {
        Obj::Tensor(t) => usable_tensor(t),
        _ => Ok(()),
    }
}

fn usable_tensor(t: &Tensor) -> anyhow::Result<()> {
    if !crate::cxx::tensor_info::storage_fits(t) {
        bail!(
            "tensor of size {:?} needs more memory than its storage holds (an earlier call's resize failed): free it",
            t.size()
        );
    }
    Ok(())
}

/// Run `f` on the live object with id `id` (an object a graph refers to by id).
pub fn with_id<R>(id: i64, f: impl FnOnce(&mut Obj) -> anyhow::Result<R>) -> anyhow::Result<R> {
    let mut r = lock();
    let obj = r
        .objs
        .get_mut(&id)
        .ok_or_else(|| anyhow!("stale pointer"))?;
    f(obj)
}

/// A shallow copy of the tensor of handle `x` (shares storage and autograd history).
pub fn tensor(x: K) -> anyhow::Result<Tensor> {
    with(x, |o| match o {
        Obj::Tensor(t) => Ok(t.shallow_clone()),
        other => bail!("expected a tensor, given {}", other.class()),
    })
}

/// The class of the live object of handle `x`, if `x` is one (a busy one included: using it
/// then fails with the busy error, not as a wrong class).
pub fn class_of(x: K) -> Option<Class> {
    let id = id_of(x)?;
    let r = lock();
    r.objs
        .get(&id)
        .map(|o| o.class())
        .or_else(|| r.busy.get(&id).copied())
}

/// Whether handle `x` is a `T` or holds one (`Obj::part`: a model's module, loss or optimizer):
/// how a domain asks "a module, or a model's module" without naming the class of a layer above
/// it. A busy handle answers true, so that using it fails with the busy error (as with
/// `class_of`, which answers a busy handle's class).
pub fn holds<T: Object>(x: K) -> bool {
    let Some(id) = id_of(x) else {
        return false;
    };
    let r = lock();
    match r.objs.get(&id) {
        Some(o) => o.part::<T>().is_some(),
        None => r.busy.contains_key(&id),
    }
}

/// The error of a busy handle, None when `x` is not busy.
pub fn busy(x: K) -> Option<anyhow::Error> {
    let id = id_of(x)?;
    let r = lock();
    r.busy.contains_key(&id).then(|| r.missing(id))
}

/// The tensors whose gradients an object's `zerograd`/`nograd` reset: an optimizer's
/// parameters, otherwise the object's tensors.
pub fn grad_tensors(x: K) -> anyhow::Result<Vec<Tensor>> {
    with(x, |o| {
        let ts = match o {
            Obj::Object(b) => b.grad_tensors(),
            o => o.tensors(),
        };
        Ok(ts.into_iter().map(|t| t.shallow_clone()).collect())
    })
}

/// Shallow copies of the tensors of any object (tensor, vector or dictionary).
pub fn tensors(x: K) -> anyhow::Result<Vec<Tensor>> {
    with(x, |o| {
        Ok(o.tensors().into_iter().map(|t| t.shallow_clone()).collect())
    })
}

/// Take the tensor of handle `x` out of the registry: the handle becomes stale, as ktorch does
/// when a tensor is moved into a vector or dictionary (use `addref` first to keep it).
pub fn take_tensor(x: K) -> anyhow::Result<Tensor> {
    let t = tensor(x)?;
    free(x)?;
    Ok(t)
}

/// Run `f` on the object of handle `x` taken out of the registry, so that the registry is not
/// locked while `f` runs (a model's training loop: a q callback inside it may call ktorch). The
/// object goes back when `f` returns or unwinds; meanwhile its handle reads as stale.
pub fn lease<R>(x: K, f: impl FnOnce(&mut Obj) -> anyhow::Result<R>) -> anyhow::Result<R> {
    let id = id_of(x).ok_or_else(|| anyhow!("not a ktorch handle"))?;
    let obj = {
        let mut r = lock();
        r.objs.remove(&id).ok_or_else(|| r.missing(id))?
    };
    struct Back(i64, Option<Obj>);
    impl Drop for Back {
        fn drop(&mut self) {
            if let Some(o) = self.1.take() {
                lock().objs.insert(self.0, o);
            }
        }
    }
    let mut back = Back(id, Some(obj));
    usable(back.1.as_ref().unwrap())?;
    f(back.1.as_mut().unwrap())
}

/// Take the object of handle `x` out of the registry (the handle goes stale): ktorch's rule for
/// a module, loss or optimizer given to a model.
pub fn take(x: K) -> anyhow::Result<Obj> {
    let id = id_of(x).ok_or_else(|| anyhow!("not a ktorch handle"))?;
    let obj = {
        let mut r = lock();
        r.objs.remove(&id).ok_or_else(|| r.missing(id))?
    };
    debug!("moved {} {id} into another object", obj.class());
    Ok(obj)
}

/// Free one handle. The object is dropped outside the lock: a future waits for its call there
/// and gives back what the call had lent, which takes the lock.
pub fn free(x: K) -> anyhow::Result<()> {
    let id = id_of(x).ok_or_else(|| anyhow!("not a ktorch handle"))?;
    let obj = {
        let mut r = lock();
        r.objs.remove(&id).ok_or_else(|| r.missing(id))?
    };
    dropped(id, obj);
    Ok(())
}

/// Free every object. Running async calls are waited for (dropping a future joins its worker),
/// and what they had lent is freed with them.
pub fn free_all() {
    let mut objs: Vec<(i64, Obj)> = {
        let mut r = lock();
        r.busy.clear();
        std::mem::take(&mut r.objs).into_iter().collect()
    };
    objs.sort_unstable_by_key(|(id, _)| *id);
    for (id, obj) in objs {
        dropped(id, obj);
    }
}

/// Drop an object taken out of the registry (outside its lock) and log it. A future waits for
/// its call and gives back what the call was lent.
fn dropped(id: i64, obj: Obj) {
    let class = obj.class();
    match obj {
        Obj::Object(o) => o.discard(),
        o => drop(o),
    }
    debug!("freed {class} {id}");
}

/// Lend objects to an async call: the object of handle `x` and every other object holding a
/// module of the same tree (`root`, the tree's address, compared with each object's `root`: handles from `addref`, `child`, a
/// model made from a shared module) leave the registry, each id marked busy, all under one
/// lock. Fails, lending nothing, when `x` is stale or already busy.
pub fn lend(x: K, root: Option<*const ()>) -> anyhow::Result<Vec<(i64, Obj)>> {
    let id = id_of(x).ok_or_else(|| anyhow!("not a ktorch handle"))?;
    let mut r = lock();
    if !r.objs.contains_key(&id) {
        return Err(r.missing(id));
    }
    let shares = |o: &Obj| match (o, root) {
        (Obj::Object(b), Some(a)) => b.root() == Some(a),
        _ => false,
    };
    let mut ids: Vec<i64> = r
        .objs
        .iter()
        .filter(|(i, o)| **i == id || shares(o))
        .map(|(i, _)| *i)
        .collect();
    ids.sort_unstable();
    let mut lent = Vec::with_capacity(ids.len());
    for i in ids {
        let o = r.objs.remove(&i).unwrap();
        r.busy.insert(i, o.class());
        lent.push((i, o));
    }
    Ok(lent)
}

/// Give back what `lend` took: each object returns to its id, which stops being busy. An id no
/// longer marked busy (everything was freed meanwhile) does not take its object back: it is
/// dropped, outside the lock.
pub fn give_back(lent: Vec<(i64, Obj)>) {
    let mut gone = vec![];
    {
        let mut r = lock();
        for (i, o) in lent {
            if r.busy.remove(&i).is_some() {
                r.objs.insert(i, o);
            } else {
                gone.push(o);
            }
        }
    }
    drop(gone);
}

/// Clear the busy mark of an id whose object will not come back.
pub fn unmark(id: i64) {
    lock().busy.remove(&id);
}

/// The handles lent to async calls, with their classes (for `obj[]`).
pub fn busy_list() -> Vec<(i64, &'static str)> {
    lock().busy.iter().map(|(i, c)| (*i, c.name())).collect()
}

/// Replace the object of handle `x` in place (the handle stays valid).
pub fn replace(x: K, obj: Obj) -> anyhow::Result<()> {
    with(x, |o| {
        *o = obj;
        Ok(())
    })
}

/// Number of live objects of each class, and all ids with their class.
pub fn list() -> Vec<(i64, &'static str)> {
    let mut v: Vec<_> = lock()
        .objs
        .iter()
        .map(|(id, o)| (*id, o.class().name()))
        .collect();
    v.sort_unstable();
    v
}

/// Visit every live object (for `obj[]`).
pub fn each<R>(mut f: impl FnMut(i64, &Obj) -> R) -> Vec<R> {
    let r = lock();
    let mut ids: Vec<i64> = r.objs.keys().copied().collect();
    ids.sort_unstable();
    ids.into_iter().map(|id| f(id, &r.objs[&id])).collect()
}

/// A short description of a q argument for error messages, as ktorch's `kname`.
pub fn describe(x: K) -> String {
    if is_handle(x) {
        // inside `registry::with` the registry cannot be asked for the class
        if in_use_here() {
            return "ktorch object".to_string();
        }
        return match class_of(x) {
            Some(c) => c.to_string(),
            None => "stale pointer".to_string(),
        };
    }
    read::describe(x)
}
